/**
 * /esm/supplier/noticeList — 图纸变更通知 (supplier inbox): the notices this supplier received,
 * unread first, each with its state, due date and reminders; filter by state or keyword. Tab
 * 变更记录: the changes those notices carried, with this supplier's state on each.
 */
import { Badge, Button, Space, Tag, Typography } from 'antd';
import type { ListColumns } from '../../../components/listColumns.tsx';
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
  {
    kind: 'select',
    name: 'state',
    label: '状态',
    width: 110,
    options: RECIPIENT_FILTERS.map((s) => ({ value: s, label: RECIPIENT_FILTER_LABELS[s] })),
  },
  { kind: 'text', name: 'keyword', label: '通知编号或标题', width: 200 },
];

const unreadLive = (r: SupplierNoticeRow) => r.status === 'PUBLISHED' && r.recipientStatus === 'UNREAD';

const stateCell = (s: SupplierNoticeRow['recipientStatus'], r: SupplierNoticeRow) => (
  <Space size={0} wrap>
    {r.status === 'WITHDRAWN' || r.status === 'CLOSED' ? <NoticeStatusTag status={r.status} /> : null}
    {r.status !== 'WITHDRAWN' && <RecipientStatusTag status={s} />}
    {r.overdue && <OverdueTag />}
    {r.remindCount > 0 && r.recipientStatus !== 'CONFIRMED' && r.status === 'PUBLISHED' && (
      <Tag color="volcano">已催办</Tag>
    )}
  </Space>
);

const openButton = (r: SupplierNoticeRow) => (
  <Link to={supplierNoticeHref(r.id)}>
    <Button type={r.status === 'PUBLISHED' && r.recipientStatus !== 'CONFIRMED' ? 'primary' : 'link'} size="small">
      {r.status === 'PUBLISHED' && r.recipientStatus !== 'CONFIRMED' ? '查看并确认' : '查看'}
    </Button>
  </Link>
);

/** On a phone (listColumns.tsx): the notice (title, number, due date), its state, and 查看. */
const COLUMNS: ListColumns<SupplierNoticeRow> = [
  {
    title: '标题',
    dataIndex: 'title',
    role: 'identity',
    ellipsis: true,
    render: (v: string, r) => (
      <Link to={supplierNoticeHref(r.id)}>{unreadLive(r) ? <Typography.Text strong>{v}</Typography.Text> : v}</Link>
    ),
  },
  {
    title: '通知编号',
    dataIndex: 'number',
    role: 'identity',
    render: (v: string, r) => (
      <Space size={6}>
        {unreadLive(r) && <Badge status="processing" />}
        {v}
      </Space>
    ),
  },
  { title: '状态', dataIndex: 'recipientStatus', role: 'state', render: stateCell },
  {
    title: '确认截止',
    dataIndex: 'dueDate',
    sorter: true,
    role: 'identity',
    render: (d: string, r) => <DueDate date={d} overdue={r.overdue} />,
  },
  { title: '变更内容', dataIndex: 'changeSummary', ellipsis: true },
  {
    title: '发布时间',
    dataIndex: 'publishedAt',
    sorter: true,
    render: (v: string | null) => formatDateTime(v).slice(0, 16),
  },
  { title: '操作', key: 'actions', fixed: 'right', render: (_: unknown, r) => openButton(r) },
];

export default function NoticeListPage() {
  const inbox = (
    <ListPage
      endpoint={noticesApi.inbox}
      columns={COLUMNS}
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
