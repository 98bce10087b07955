/** How a question's state reads: its status tag, the overdue mark, and the columns both lists show. */
import { Space, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { ISSUE_STATUS_LABELS, type IssueRow, type IssueStatus } from '@esm/contracts';
import { OVERDUE_ROW } from '../../components/PagedTable.tsx';

const COLORS: Record<IssueStatus, string> = {
  DRAFT: 'default',
  PENDING: 'orange',
  PROCESSING: 'processing',
  ANSWERED: 'green',
  CLOSED: 'default',
};

export const IssueStatusTag = ({ status }: { status: IssueStatus }) => (
  <Tag color={COLORS[status]}>{ISSUE_STATUS_LABELS[status]}</Tag>
);

export const OverdueTag = ({ overdue }: { overdue: boolean }) => (overdue ? <Tag color="red">逾期</Tag> : null);

/** 问题类型 and 状态 (with 逾期), the same on the supplier's and the answerers' lists. */
export const typeAndStatusColumns: ColumnsType<IssueRow> = [
  { title: '问题类型', dataIndex: 'problemTypeName', width: 100 },
  {
    title: '状态',
    dataIndex: 'status',
    sorter: true,
    width: 115,
    render: (s: IssueRow['status'], r) => (
      <Space size={2}>
        <IssueStatusTag status={s} />
        <OverdueTag overdue={r.overdue} />
      </Space>
    ),
  },
];

/** A question past its due date and not answered: the tinted row of every list. */
export const overdueRow = (r: IssueRow) => (r.overdue ? OVERDUE_ROW : '');
