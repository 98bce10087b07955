/**
 * /esm/supplier/noticeList — 图纸变更通知 (supplier inbox): the notices this supplier received,
 * unread first, each with its state, due date and reminders; filter by state or keyword. Tab
 * 变更记录: the changes those notices carried, with this supplier's state on each.
 */
import { Badge, Button, Space, Tag, Typography } from 'antd';
import { useMd } from '../../../components/useScreen.ts';
import type { ColumnsType } from 'antd/es/table';
import { Link } from 'react-router';
import { RECIPIENT_FILTERS, RECIPIENT_FILTER_LABELS, noticesApi, type SupplierNoticeRow } from '@esm/contracts';
import { ListPage } from '../../../components/ListPage.tsx';
import { UrlTabs } from '../../../components/UrlTabs.tsx';
import { OVERDUE_ROW } from '../../../components/PagedTable.tsx';
import { ChangeRecordsForSupplier } from '../ChangeRecords.tsx';
import type { FilterField } from '../../../components/FilterForm.tsx';
import { formatDateTime } from '../../../components/labels.tsx';
import { DueDate, NoticeStatusTag, OverdueTag, RecipientStatusTag } from '../labels.tsx';
import { supplierNoticeHref } from '../links.ts';

const FIELDS: FilterField[] = [
  { kind: 'select', name: 'state', label: '状态', width: 110, options: RECIPIENT_FILTERS.map((s) => ({ value: s, label: RECIPIENT_FILTER_LABELS[s] })) },
  { kind: 'text', name: 'keyword', label: '通知编号或标题', width: 200 },
];

const unreadLive = (r: SupplierNoticeRow) => r.status === 'PUBLISHED' && r.recipientStatus === 'UNREAD';

const stateCell = (s: SupplierNoticeRow['recipientStatus'], r: SupplierNoticeRow) => (
  <Space size={0} wrap>
    {r.status === 'WITHDRAWN' || r.status === 'CLOSED' ? <NoticeStatusTag status={r.status} /> : null}
    {r.status !== 'WITHDRAWN' && <RecipientStatusTag status={s} />}
    {r.overdue && <OverdueTag />}
    {r.remindCount > 0 && r.recipientStatus !== 'CONFIRMED' && r.status === 'PUBLISHED' && <Tag color="volcano">已催办</Tag>}
  </Space>
);

const openButton = (r: SupplierNoticeRow) => (
  <Link to={supplierNoticeHref(r.id)}>
    <Button type={r.status === 'PUBLISHED' && r.recipientStatus !== 'CONFIRMED' ? 'primary' : 'link'} size="small">
      {r.status === 'PUBLISHED' && r.recipientStatus !== 'CONFIRMED' ? '查看并确认' : '查看'}
    </Button>
  </Link>
);

const COLUMNS: ColumnsType<SupplierNoticeRow> = [
  {
    title: '通知编号',
    dataIndex: 'number',
    width: 130,
    render: (v: string, r) => (
      <Space size={6}>
        {unreadLive(r) && <Badge status="processing" />}
        <Link to={supplierNoticeHref(r.id)}>{v}</Link>
      </Space>
    ),
  },
  {
    title: '标题',
    dataIndex: 'title',
    width: 230,
    ellipsis: { showTitle: true },
    render: (v: string, r) => (unreadLive(r) ? <Typography.Text strong>{v}</Typography.Text> : v),
  },
  { title: '变更内容', dataIndex: 'changeSummary', width: 210, ellipsis: { showTitle: true } },
  {
    title: '状态',
    dataIndex: 'recipientStatus',
    width: 170,
    render: stateCell,
  },
  { title: '确认截止', dataIndex: 'dueDate', sorter: true, width: 110, render: (d: string, r) => <DueDate date={d} overdue={r.overdue} /> },
  { title: '发布时间', dataIndex: 'publishedAt', sorter: true, width: 150, render: (v: string | null) => formatDateTime(v).slice(0, 16) },
  {
    title: '操作',
    key: 'actions',
    width: 116,
    fixed: 'right',
    render: (_: unknown, r) => openButton(r),
  },
];

/** A phone: the notice (title, number, due date), its state, and 查看. */
const NARROW_COLUMNS: ColumnsType<SupplierNoticeRow> = [
  {
    title: '通知',
    dataIndex: 'title',
    width: 230,
    render: (v: string, r) => (
      <div style={{ lineHeight: 1.4 }}>
        <Link to={supplierNoticeHref(r.id)}>{unreadLive(r) ? <Typography.Text strong>{v}</Typography.Text> : v}</Link>
        <div>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {r.number} · 截止 <DueDate date={r.dueDate} overdue={r.overdue} />
          </Typography.Text>
        </div>
      </div>
    ),
  },
  { title: '状态', dataIndex: 'recipientStatus', width: 150, render: stateCell },
  { title: '操作', key: 'actions', width: 110, render: (_: unknown, r) => openButton(r) },
];

export default function NoticeListPage() {
  const wide = useMd();
  const inbox = (
    <ListPage
      endpoint={noticesApi.inbox}
      columns={wide ? COLUMNS : NARROW_COLUMNS}
      fields={FIELDS}
      rowKey="id"
      rowClassName={(r) => (r.overdue ? OVERDUE_ROW : '')}
      filterTestId="notice-filters"
    />
  );
  return (
    <UrlTabs
      items={[
        { key: 'notices', label: '变更通知', children: inbox },
        { key: 'changes', label: '变更记录', children: <ChangeRecordsForSupplier /> },
      ]}
    />
  );
}
