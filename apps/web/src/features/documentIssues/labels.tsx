/** How a question's state reads: its status tag, the overdue mark, and the columns both lists show. */
import { Space, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { ISSUE_STATUSES, ISSUE_STATUS_LABELS, type IssueRow, type IssueStatus } from '@esm/contracts';
import type { FilterField } from '../../components/FilterForm.tsx';
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

/**
 * The filters of both question lists: the internal list also filters by supplier and has no
 * drafts (they are the supplier's own until submitted).
 */
export function issueFilterFields(
  side: 'supplier' | 'internal',
  types: readonly { id: number; name: string }[] | undefined,
): FilterField[] {
  const statuses = side === 'internal' ? ISSUE_STATUSES.filter((s) => s !== 'DRAFT') : ISSUE_STATUSES;
  return [
    { kind: 'text', name: 'keyword', label: '编号或标题', width: 140 },
    {
      kind: 'select',
      name: 'status',
      label: '状态',
      width: 110,
      options: statuses.map((s) => ({ value: s, label: ISSUE_STATUS_LABELS[s] })),
    },
    ...(side === 'internal'
      ? ([{ kind: 'text', name: 'supplierCode', label: '供应商编码', width: 120 }] as FilterField[])
      : []),
    { kind: 'text', name: 'materialCode', label: '物料编码', width: 120 },
    {
      kind: 'select',
      name: 'problemTypeId',
      label: '问题类型',
      width: 140,
      options: (types ?? []).map((t) => ({ value: t.id, label: t.name })),
    },
    { kind: 'select', name: 'overdueOnly', label: '逾期', width: 100, options: [{ value: '1', label: '仅看逾期' }] },
    {
      kind: 'dateRange',
      from: 'dateFrom',
      to: 'dateTo',
      label: '创建日期',
      placeholder: ['创建开始日期', '创建结束日期'],
    },
  ];
}
