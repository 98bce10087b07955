/**
 * The five drawing logs — 图纸查看日志, 图纸确认日志, 蓝图下载日志, 图纸打印日志, 保密协议记录 —
 * one list page for five routes: the route says which log (LOG_PAGES). Filters by supplier,
 * material, standard code, user, outcome and date range.
 */
import { Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useLocation } from 'react-router';
import {
  LOG_ACTIONS,
  LOG_OUTCOMES,
  LOG_OUTCOME_LABELS,
  LOG_PAGES,
  logOutcomeText,
  logsApi,
  type LogAction,
  type LogOutcome,
  type LogRow,
} from '@esm/contracts';
import { ListPage } from '../../components/ListPage.tsx';
import type { FilterField } from '../../components/FilterForm.tsx';
import { OutcomeTag, formatDateTime } from '../../components/labels.tsx';
import { supplierSource } from '../../components/supplierSource.ts';

const dash = (v: string | null) => v || '—';
const both = (code: string | null, name: string | null) =>
  code ? (
    <span title={`${code} ${name ?? ''}`}>
      {code} <Typography.Text type="secondary">{name}</Typography.Text>
    </span>
  ) : (
    '—'
  );

const outcomeColumn: ColumnsType<LogRow>[number] = {
  title: '结果',
  dataIndex: 'outcome',
  width: 120,
  render: (v: LogOutcome, r) =>
    r.reason ? (
      <Tooltip title={r.reason}>
        <span>
          <OutcomeTag outcome={v} />
        </span>
      </Tooltip>
    ) : (
      <OutcomeTag outcome={v} text={logOutcomeText(r)} />
    ),
};
const whoColumns: ColumnsType<LogRow> = [
  { title: '时间', dataIndex: 'createdAt', sorter: true, width: 170, render: formatDateTime },
  {
    title: '用户',
    dataIndex: 'userAccount',
    sorter: true,
    width: 150,
    ellipsis: true,
    render: (v: string, r) => both(v, r.userName),
  },
  {
    title: '供应商',
    dataIndex: 'supplierCode',
    sorter: true,
    width: 200,
    ellipsis: true,
    render: (v: string | null, r) => both(v, r.supplierName),
  },
];
const ipColumn: ColumnsType<LogRow>[number] = { title: 'IP', dataIndex: 'ip', width: 130, render: dash };

/** File logs say which file; agreement rows keep the agreement's title and version in those columns. */
const FILE_LOG_COLUMNS: ColumnsType<LogRow> = [
  ...whoColumns,
  { title: '标准编号', dataIndex: 'standardCode', sorter: true, width: 160, ellipsis: true, render: dash },
  { title: '文件名', dataIndex: 'fileName', width: 180, ellipsis: true, render: dash },
  { title: '版本', dataIndex: 'version', width: 80, render: dash },
  {
    title: '物料',
    dataIndex: 'materialCode',
    sorter: true,
    width: 180,
    ellipsis: true,
    render: (v: string | null, r) => both(v, r.materialName),
  },
  outcomeColumn,
  ipColumn,
];
const AGREEMENT_LOG_COLUMNS: ColumnsType<LogRow> = [
  ...whoColumns,
  { title: '保密协议', dataIndex: 'fileName', width: 240, ellipsis: true, render: dash },
  { title: '协议版本', dataIndex: 'version', width: 90, render: dash },
  outcomeColumn,
  ipColumn,
];

const supplier: FilterField = {
  kind: 'remote',
  name: 'supplierCode',
  label: '供应商',
  source: supplierSource,
  width: 180,
};
const tail: FilterField[] = [
  { kind: 'text', name: 'user', label: '用户', placeholder: '用户账号或姓名' },
  {
    kind: 'select',
    name: 'outcome',
    label: '结果',
    width: 100,
    options: LOG_OUTCOMES.map((o) => ({ value: o, label: LOG_OUTCOME_LABELS[o] })),
  },
  { kind: 'dateRange', from: 'dateFrom', to: 'dateTo', label: '日期' },
];
const FILE_LOG_FIELDS: FilterField[] = [
  supplier,
  { kind: 'text', name: 'materialCode', label: '物料编码', width: 130 },
  { kind: 'text', name: 'standardCode', label: '标准编号', width: 130 },
  ...tail,
];
const AGREEMENT_LOG_FIELDS: FilterField[] = [supplier, ...tail];

const ACTION_BY_PAGE = new Map(LOG_ACTIONS.map((action) => [LOG_PAGES[action], action]));

export default function LogPage() {
  const { pathname } = useLocation();
  const action: LogAction = ACTION_BY_PAGE.get(pathname.replace(/\/+$/, '')) ?? 'VIEW';
  const aboutFiles = action !== 'KEEPSECRET';
  // keyed by the log: moving between two log pages starts from empty filters
  return (
    <ListPage
      key={action}
      endpoint={logsApi[action]}
      columns={aboutFiles ? FILE_LOG_COLUMNS : AGREEMENT_LOG_COLUMNS}
      fields={aboutFiles ? FILE_LOG_FIELDS : AGREEMENT_LOG_FIELDS}
      rowKey="id"
      filterTestId="log-filters"
      // the agreement log's 保密协议 is its fileName column: hidden only on the file logs
      columnSettings={{ table: `log-${action}`, defaultHidden: aboutFiles ? ['ip', 'fileName'] : ['ip'] }}
    />
  );
}
