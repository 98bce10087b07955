/**
 * The five drawing logs — 图纸查看日志, 图纸确认日志, 蓝图下载日志, 图纸打印日志, 保密协议记录 —
 * one page for five routes: the route says which log (LOG_ENDPOINTS). Filters by supplier,
 * material, standard code, user, outcome and date range.
 */
import { FilterButtons } from '../../components/FilterButtons.tsx';
import { useState } from 'react';
import { DatePicker, Form, Input, Select, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { Dayjs } from 'dayjs';
import { useLocation } from 'react-router-dom';
import { LOG_ENDPOINTS, LOG_OUTCOME_LABELS, type LogAction, type LogOutcome, type LogRow } from '@esm/contracts';
import { LOG_FETCHERS } from '../../api/logs.ts';
import { OutcomeTag, formatDateTime } from '../../components/archive/labels.tsx';
import { PagedTable } from '../../components/PagedTable.tsx';
import { SupplierSelect } from './archive/SupplierSelect.tsx';

interface LogFilters {
  supplierCode?: string;
  materialCode?: string;
  standardCode?: string;
  user?: string;
  outcome?: LogOutcome;
  dateFrom?: string;
  dateTo?: string;
}
type LogFilterValues = Omit<LogFilters, 'dateFrom' | 'dateTo'> & { dates?: [Dayjs | null, Dayjs | null] | null };

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
  width: 90,
  render: (v: LogOutcome, r) =>
    r.reason ? (
      <Tooltip title={r.reason}>
        <span>
          <OutcomeTag outcome={v} />
        </span>
      </Tooltip>
    ) : (
      <OutcomeTag outcome={v} />
    ),
};
const whoColumns: ColumnsType<LogRow> = [
  { title: '时间', dataIndex: 'createdAt', sorter: true, width: 170, render: formatDateTime },
  { title: '用户', dataIndex: 'userAccount', sorter: true, width: 150, ellipsis: true, render: (v: string, r) => both(v, r.userName) },
  { title: '供应商', dataIndex: 'supplierCode', sorter: true, width: 200, ellipsis: true, render: (v: string | null, r) => both(v, r.supplierName) },
];
const ipColumn: ColumnsType<LogRow>[number] = { title: 'IP', dataIndex: 'ip', width: 130, render: dash };

/** File logs say which file; agreement rows keep the agreement's title and version in those columns. */
const FILE_LOG_COLUMNS: ColumnsType<LogRow> = [
  ...whoColumns,
  { title: '标准编号', dataIndex: 'standardCode', sorter: true, width: 160, ellipsis: true, render: dash },
  { title: '文件名', dataIndex: 'fileName', width: 180, ellipsis: true, render: dash },
  { title: '版本', dataIndex: 'version', width: 80, render: dash },
  { title: '物料', dataIndex: 'materialCode', sorter: true, width: 180, ellipsis: true, render: (v: string | null, r) => both(v, r.materialName) },
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
const widthOf = (cols: ColumnsType<LogRow>) => cols.reduce((w, c) => w + Number(c.width ?? 120), 0);

function LogTable({ action }: { action: LogAction }) {
  const aboutFiles = action !== 'KEEPSECRET';
  const columns = aboutFiles ? FILE_LOG_COLUMNS : AGREEMENT_LOG_COLUMNS;
  const [form] = Form.useForm<LogFilterValues>();
  const [filters, setFilters] = useState<LogFilters>({});
  const search = ({ dates, ...v }: LogFilterValues) => {
    const text = (s?: string) => s?.trim() || undefined;
    setFilters({
      supplierCode: v.supplierCode,
      materialCode: text(v.materialCode),
      standardCode: text(v.standardCode),
      user: text(v.user),
      outcome: v.outcome,
      dateFrom: dates?.[0]?.format('YYYY-MM-DD'),
      dateTo: dates?.[1]?.format('YYYY-MM-DD'),
    });
  };
  return (
    <PagedTable<LogRow, LogFilters>
      queryKey={LOG_ENDPOINTS[action].path}
      fetcher={LOG_FETCHERS[action]}
      columns={columns}
      filters={filters}
      rowKey="id"
      scrollX={widthOf(columns)}
      toolbar={
        <Form<LogFilterValues> form={form} name="logFilters" layout="inline" onFinish={search} style={{ rowGap: 12, marginBottom: 16 }} data-testid="log-filters">
          <Form.Item name="supplierCode">
            <SupplierSelect width={180} />
          </Form.Item>
          {aboutFiles && (
            <Form.Item name="materialCode">
              <Input allowClear placeholder="物料编码" style={{ width: 130 }} aria-label="物料编码" />
            </Form.Item>
          )}
          {aboutFiles && (
            <Form.Item name="standardCode">
              <Input allowClear placeholder="标准编号" style={{ width: 130 }} aria-label="标准编号" />
            </Form.Item>
          )}
          <Form.Item name="user">
            <Input allowClear placeholder="用户账号或姓名" style={{ width: 150 }} aria-label="用户" />
          </Form.Item>
          <Form.Item name="outcome">
            <Select
              allowClear
              placeholder="结果"
              style={{ width: 100 }}
              options={(Object.keys(LOG_OUTCOME_LABELS) as LogOutcome[]).map((o) => ({ value: o, label: LOG_OUTCOME_LABELS[o] }))}
              aria-label="结果"
            />
          </Form.Item>
          <Form.Item name="dates">
            <DatePicker.RangePicker placeholder={['开始日期', '结束日期']} style={{ width: 240 }} aria-label="日期" />
          </Form.Item>
          <Form.Item>
            <FilterButtons
              onReset={() => {
                form.resetFields();
                setFilters({});
              }}
            />
          </Form.Item>
        </Form>
      }
    />
  );
}

const ACTION_BY_PAGE = new Map(Object.entries(LOG_ENDPOINTS).map(([action, e]) => [e.page, action as LogAction]));

export default function LogPage() {
  const { pathname } = useLocation();
  const action = ACTION_BY_PAGE.get(pathname.replace(/\/+$/, '')) ?? 'VIEW';
  // keyed by the log: moving between two log pages starts from empty filters
  return <LogTable key={action} action={action} />;
}
