/**
 * The change records (变更记录: which version of which standard code replaced which, by which
 * notice) and one supplier's standing across notices (供应商确认情况). Tabs of the notice pages:
 * - manufacturer: every change (searchStandardChange); naming a supplier narrows it to the changes
 *   that concern that supplier, with its read/confirm state (getChangeListForSupplier);
 * - supplier: the changes its own notices carried (supplier/tableChangeLog/getChangeListForSupplier);
 * - manufacturer, per supplier: each notice it received and where it stands (searchSupplierDetail).
 */
import { useState } from 'react';
import { Empty, Space, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { Link } from 'react-router';
import {
  FILE_STATUS_LABELS,
  RECIPIENT_FILTERS,
  RECIPIENT_FILTER_LABELS,
  noticesApi,
  type ChangeRecordRow,
  type SupplierChangeRow,
  type SupplierNoticeRow,
} from '@esm/contracts';
import { FilterForm, type FilterField, type Filters } from '../../components/FilterForm.tsx';
import { ListPage } from '../../components/ListPage.tsx';
import { OVERDUE_ROW, PagedTable } from '../../components/PagedTable.tsx';
import { RemoteSelect } from '../../components/RemoteSelect.tsx';
import { formatDateTime } from '../../components/labels.tsx';
import { supplierSource } from '../../components/supplierSource.ts';
import { useProductLines } from './api.ts';
import { DueDate, NoticeStatusTag, OverdueTag, RecipientStatusTag } from './labels.tsx';
import { noticeHref, supplierNoticeHref } from './links.ts';

const changeFields = (lines: { code: string; name: string }[]): FilterField[] => [
  { kind: 'text', name: 'standardCode', label: '标准编号', width: 140 },
  { kind: 'text', name: 'materialCode', label: '物料编码', width: 120 },
  { kind: 'text', name: 'noticeNumber', label: '通知编号', width: 130 },
  {
    kind: 'select',
    name: 'productLineCode',
    label: '产品线',
    width: 110,
    options: lines.map((l) => ({ value: l.code, label: l.name })),
  },
  {
    kind: 'dateRange',
    from: 'dateFrom',
    to: 'dateTo',
    label: '发布日期',
    placeholder: ['发布日期起', '发布日期止'],
    width: 230,
  },
];

const versionCell = (_: unknown, r: ChangeRecordRow) => (
  <span>
    {r.oldVersion ?? '（新增）'} → <Typography.Text strong>{r.newVersion}</Typography.Text>
    {r.newFileStatus !== 'EFFECTIVE' && (
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {' '}
        （{FILE_STATUS_LABELS[r.newFileStatus]}）
      </Typography.Text>
    )}
  </span>
);

function changeColumns<R extends ChangeRecordRow>(href: (id: number) => string): ColumnsType<R> {
  return [
    { title: '标准编号', dataIndex: 'standardCode', sorter: true, width: 140 },
    { title: '名称', dataIndex: 'name', width: 170, ellipsis: { showTitle: true } },
    { title: '版本', key: 'version', width: 130, render: versionCell },
    {
      title: '物料',
      dataIndex: 'materialCode',
      width: 170,
      ellipsis: { showTitle: true },
      render: (v: string, r) => `${v} ${r.materialName}`,
    },
    {
      title: '变更通知',
      dataIndex: 'noticeNumber',
      width: 200,
      render: (v: string, r) => (
        <Space size={4} wrap>
          <Link to={href(r.noticeId)}>{v}</Link>
          <NoticeStatusTag status={r.noticeStatus} />
        </Space>
      ),
    },
    {
      title: '发布时间',
      dataIndex: 'publishedAt',
      sorter: true,
      width: 104,
      render: (v: string | null) => (v ? <span title={formatDateTime(v)}>{formatDateTime(v).slice(0, 10)}</span> : '—'),
    },
  ];
}

const supplierStateColumns: ColumnsType<SupplierChangeRow> = [
  {
    title: '该供应商',
    key: 'recipientStatus',
    width: 130,
    render: (_: unknown, r) => (
      <Space size={0} wrap>
        <RecipientStatusTag status={r.recipientStatus} />
        {r.overdue && <OverdueTag />}
      </Space>
    ),
  },
  {
    title: '确认截止',
    dataIndex: 'dueDate',
    width: 104,
    render: (d: string, r) => <DueDate date={d} overdue={r.overdue} />,
  },
];

/** 变更记录 for internal users: all changes, or (a supplier named) those that concern that supplier. */
export function ChangeRecordsForStaff() {
  const lines = useProductLines();
  const [filters, setFilters] = useState<Filters>({});
  const [supplierCode, setSupplierCode] = useState<string>();
  const toolbar = (
    <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8, alignItems: 'flex-start' }}>
      <RemoteSelect
        source={supplierSource}
        label="供应商"
        width={200}
        value={supplierCode}
        onChange={setSupplierCode}
      />
      <div style={{ flex: 1, minWidth: 0 }}>
        <FilterForm fields={changeFields(lines.data ?? [])} onChange={setFilters} testId="change-filters" />
      </div>
    </div>
  );
  return supplierCode ? (
    <PagedTable
      endpoint={noticesApi.sharedChangeList}
      columns={[...changeColumns<SupplierChangeRow>(noticeHref), ...supplierStateColumns]}
      filters={{ ...filters, supplierCode }}
      rowKey="changeId"
      rowClassName={(r) => (r.overdue ? OVERDUE_ROW : '')}
      toolbar={toolbar}
      emptyText="该供应商没有收到过变更"
    />
  ) : (
    <PagedTable
      endpoint={noticesApi.changes}
      columns={changeColumns<ChangeRecordRow>(noticeHref)}
      filters={filters}
      rowKey="changeId"
      toolbar={toolbar}
      emptyText="没有变更记录"
    />
  );
}

/** 变更记录 for a supplier: the changes of the notices it received, with its own state on each. */
export function ChangeRecordsForSupplier() {
  const lines = useProductLines();
  return (
    <ListPage
      endpoint={noticesApi.supplierChangeList}
      columns={[...changeColumns<SupplierChangeRow>(supplierNoticeHref), ...supplierStateColumns]}
      fields={changeFields(lines.data ?? [])}
      rowKey="changeId"
      rowClassName={(r) => (r.overdue ? OVERDUE_ROW : '')}
      filterTestId="change-filters"
      emptyText="还没有收到变更"
    />
  );
}

const SUPPLIER_DETAIL_FIELDS: FilterField[] = [
  {
    kind: 'select',
    name: 'state',
    label: '状态',
    width: 110,
    options: RECIPIENT_FILTERS.map((s) => ({ value: s, label: RECIPIENT_FILTER_LABELS[s] })),
  },
];

const who = (at: string | null, name: string | null) => (at ? `${formatDateTime(at).slice(0, 16)} ${name ?? ''}` : '—');

const SUPPLIER_DETAIL_COLUMNS: ColumnsType<SupplierNoticeRow> = [
  {
    title: '通知编号',
    dataIndex: 'number',
    width: 124,
    render: (v: string, r) => <Link to={noticeHref(r.id)}>{v}</Link>,
  },
  { title: '标题', dataIndex: 'title', width: 170, ellipsis: { showTitle: true } },
  {
    title: '状态',
    key: 'state',
    width: 140,
    render: (_: unknown, r) => (
      <Space size={0} wrap>
        {r.status !== 'PUBLISHED' && <NoticeStatusTag status={r.status} />}
        <RecipientStatusTag status={r.recipientStatus} />
        {r.overdue && <OverdueTag />}
      </Space>
    ),
  },
  {
    title: '确认截止',
    dataIndex: 'dueDate',
    sorter: true,
    width: 104,
    render: (d: string, r) => <DueDate date={d} overdue={r.overdue} />,
  },
  { title: '阅读', key: 'read', width: 170, render: (_: unknown, r) => who(r.readAt, r.readByName) },
  { title: '确认', key: 'confirmed', width: 170, render: (_: unknown, r) => who(r.confirmedAt, r.confirmedByName) },
  { title: '催办', dataIndex: 'remindCount', width: 64, render: (n: number) => (n ? `${n} 次` : '—') },
  {
    title: '发布时间',
    dataIndex: 'publishedAt',
    sorter: true,
    width: 104,
    render: (v: string | null) => (v ? formatDateTime(v).slice(0, 10) : '—'),
  },
];

/** 供应商确认情况: one supplier across the notices it received — read, confirmed, overdue. */
export function SupplierNoticeStanding() {
  const [supplierCode, setSupplierCode] = useState<string>();
  const [filters, setFilters] = useState<Filters>({});
  const toolbar = (
    <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8, alignItems: 'flex-start' }}>
      <RemoteSelect
        source={supplierSource}
        label="供应商"
        width={240}
        value={supplierCode}
        onChange={setSupplierCode}
      />
      <FilterForm fields={SUPPLIER_DETAIL_FIELDS} onChange={setFilters} testId="standing-filters" />
    </div>
  );
  if (!supplierCode)
    return (
      <>
        {toolbar}
        <Empty description="选择一家供应商，查看它在各变更通知上的阅读、确认与逾期情况" />
      </>
    );
  return (
    <PagedTable
      endpoint={noticesApi.supplierDetail}
      columns={SUPPLIER_DETAIL_COLUMNS}
      filters={{ ...filters, supplierCode }}
      rowKey="id"
      rowClassName={(r) => (r.overdue ? OVERDUE_ROW : '')}
      toolbar={toolbar}
      emptyText="该供应商没有收到过变更通知"
    />
  );
}
