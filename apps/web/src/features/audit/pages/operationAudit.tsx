/**
 * /esm/system/operationAudit — 操作审计 (drawing admins): every act of the workflows (变更通知,
 * 授权申请, 图纸问题, 会签单) in one list, newest first: when, which record, what was done, by whom,
 * from where and what it recorded (a reason, a comment). Filters: 时间范围, 业务类型, 操作人, 关键字.
 */
import { Tag } from 'antd';
import { OPERATION_KINDS, OPERATION_KIND_LABELS, auditApi, type OperationAuditRow } from '@esm/contracts';
import { ListPage } from '../../../components/ListPage.tsx';
import type { FilterField } from '../../../components/FilterForm.tsx';
import type { ListColumns } from '../../../components/listColumns.tsx';
import { formatDateTime } from '../../../components/labels.tsx';

const FIELDS: FilterField[] = [
  { kind: 'dateRange', from: 'dateFrom', to: 'dateTo', label: '操作日期' },
  {
    kind: 'select',
    name: 'kind',
    label: '业务类型',
    width: 130,
    options: OPERATION_KINDS.map((k) => ({ value: k, label: OPERATION_KIND_LABELS[k] })),
  },
  { kind: 'text', name: 'operator', label: '操作人', placeholder: '账号或姓名', width: 150 },
  { kind: 'text', name: 'keyword', label: '关键字', placeholder: '单号或说明', width: 170 },
];

const KIND_COLORS = { NOTICE: 'blue', APPLICATION: 'purple', QUESTION: 'orange', COUNTERSIGN: 'cyan' } as const;

/** On a phone (listColumns.tsx): the record and the act first, then who. */
const COLUMNS: ListColumns<OperationAuditRow> = [
  { title: '单号', dataIndex: 'subject', role: 'identity' },
  { title: '操作', dataIndex: 'actionLabel', role: 'identity' },
  {
    title: '业务类型',
    dataIndex: 'kind',
    role: 'state',
    render: (k: OperationAuditRow['kind']) => <Tag color={KIND_COLORS[k]}>{OPERATION_KIND_LABELS[k]}</Tag>,
  },
  {
    title: '操作人',
    dataIndex: 'userName',
    render: (v: string | undefined, r) => (v === undefined ? '—' : r.userAccount ? `${v}（${r.userAccount}）` : v),
  },
  { title: '说明', dataIndex: 'detail', ellipsis: true, render: (v: string | null | undefined) => v || '—' },
  { title: 'IP', dataIndex: 'ip', render: (v: string | null | undefined) => v || '—' },
  { title: '操作时间', dataIndex: 'createdAt', sorter: true, render: (v: string) => formatDateTime(v) },
];

export default function OperationAuditPage() {
  return (
    <ListPage
      endpoint={auditApi.operations}
      columns={COLUMNS}
      fields={FIELDS}
      rowKey="key"
      filterTestId="operation-audit-filters"
      emptyText="暂无操作记录"
    />
  );
}
