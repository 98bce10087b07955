/** How a notice's and a recipient's states look, shared by every notice page and the bell. */
import { Tag, Typography } from 'antd';
import { ClockCircleOutlined } from '@ant-design/icons';
import { NOTICE_STATUS_LABELS, RECIPIENT_STATUS_LABELS, type NoticeStatus, type RecipientStatus } from '@esm/contracts';

const NOTICE_COLORS: Record<NoticeStatus, string> = {
  DRAFT: 'default',
  PUBLISHED: 'blue',
  CLOSED: 'green',
  WITHDRAWN: 'red',
};
const RECIPIENT_COLORS: Record<RecipientStatus, string> = { UNREAD: 'orange', READ: 'blue', CONFIRMED: 'green' };

export const NoticeStatusTag = ({ status }: { status: NoticeStatus }) => (
  <Tag color={NOTICE_COLORS[status]}>{NOTICE_STATUS_LABELS[status]}</Tag>
);
export const RecipientStatusTag = ({ status }: { status: RecipientStatus }) => (
  <Tag color={RECIPIENT_COLORS[status]}>{RECIPIENT_STATUS_LABELS[status]}</Tag>
);
export const OverdueTag = () => (
  <Tag color="red" icon={<ClockCircleOutlined />}>
    逾期
  </Tag>
);

/** A due date, red when it is overdue. */
export function DueDate({
  date,
  overdue,
  hint = '已过确认截止日期',
}: {
  date: string;
  overdue?: boolean;
  hint?: string;
}) {
  return overdue ? (
    <Typography.Text type="danger" strong title={hint}>
      {date}
    </Typography.Text>
  ) : (
    <span>{date}</span>
  );
}
