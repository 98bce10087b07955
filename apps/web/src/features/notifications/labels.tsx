import { Tag } from 'antd';
import { NOTIFICATION_KIND_LABELS, type NotificationKind } from '@esm/contracts';

const COLORS: Partial<Record<NotificationKind, string>> = {
  NOTICE_PUBLISHED: 'blue',
  NOTICE_WITHDRAWN: 'default',
  NOTICE_DUE_SOON: 'orange',
  NOTICE_OVERDUE: 'red',
  GRANT_EXPIRING: 'orange',
  APPLICATION_SUBMITTED: 'gold',
  APPLICATION_DECIDED: 'green',
  QUESTION_ASSIGNED: 'gold',
  QUESTION_REPLIED: 'green',
  COUNTERSIGN_WAITING: 'gold',
  COUNTERSIGN_RETURNED: 'red',
  COUNTERSIGN_COMPLETED: 'green',
};

export const KindTag = ({ kind }: { kind: NotificationKind }) => (
  <Tag color={COLORS[kind]}>{NOTIFICATION_KIND_LABELS[kind]}</Tag>
);
