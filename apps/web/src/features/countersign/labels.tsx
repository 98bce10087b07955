/** How a countersign list's state and a signature's decision look, on both sides. */
import { Tag } from 'antd';
import {
  COUNTERSIGN_DECISION_LABELS,
  COUNTERSIGN_STATUS_LABELS,
  type CountersignDecision,
  type CountersignStatus,
} from '@esm/contracts';

const STATUS_COLORS: Record<CountersignStatus, string> = {
  DRAFT: 'default',
  SUPPLIER_SIGNING: 'orange',
  INTERNAL_SIGNING: 'blue',
  RETURNED: 'magenta',
  COMPLETED: 'green',
  CANCELLED: 'default',
};
const DECISION_COLORS: Record<CountersignDecision, string> = { AGREE: 'green', CONDITIONAL: 'gold', RETURN: 'red' };

export const CountersignStatusTag = ({ status }: { status: CountersignStatus }) => (
  <Tag color={STATUS_COLORS[status]}>{COUNTERSIGN_STATUS_LABELS[status]}</Tag>
);
export const DecisionTag = ({ decision }: { decision: CountersignDecision }) => (
  <Tag color={DECISION_COLORS[decision]}>{COUNTERSIGN_DECISION_LABELS[decision]}</Tag>
);
