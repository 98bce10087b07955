/**
 * /esm/drawingManagement/changeNoticeList — 变更通知列表: every notice with its recipients' progress,
 * overdue ones marked; filters (number, title, material, product line, status, publish date,
 * overdue only); 新建, and per notice 查看 and the actions its state allows. `?newFileId=` (from
 * 发布变更通知 after an upload) opens a new draft about that version. Tabs: 变更记录 (which version
 * replaced which, by which notice; per supplier when one is named) and 供应商确认情况 (one supplier
 * across notices), kept in `?tab=`.
 */
import { useEffect } from 'react';
import { Button, Progress, Space, Tooltip, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import type { ListColumns } from '../../../components/listColumns.tsx';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { NOTICE_STATUSES, NOTICE_STATUS_LABELS, noticesApi, type NoticeRow } from '@esm/contracts';
import { ListPage } from '../../../components/ListPage.tsx';
import { UrlTabs } from '../../../components/UrlTabs.tsx';
import { OVERDUE_ROW } from '../../../components/PagedTable.tsx';
import { ChangeRecordsForStaff, SupplierNoticeStanding } from '../ChangeRecords.tsx';
import type { FilterField } from '../../../components/FilterForm.tsx';
import { formatDateTime } from '../../../components/labels.tsx';
import { useProductLines } from '../api.ts';
import { DueDate, NoticeStatusTag, OverdueTag } from '../labels.tsx';
import { noticeHref } from '../links.ts';
import { useNoticeActions } from '../useNoticeActions.tsx';

function Progressing({ r }: { r: NoticeRow }) {
  if (r.status === 'DRAFT') return <Typography.Text type="secondary">未发布</Typography.Text>;
  const pct = r.recipientCount ? Math.round((r.confirmedCount / r.recipientCount) * 100) : 0;
  return (
    <Tooltip
      title={`共 ${r.recipientCount} 家：已读 ${r.readCount}（含已确认），已确认 ${r.confirmedCount}，逾期 ${r.overdueCount}`}
    >
      <div style={{ lineHeight: 1.3 }}>
        <div>
          已确认 {r.confirmedCount}/{r.recipientCount}
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {' '}
            · 已读 {r.readCount}
          </Typography.Text>
        </div>
        <Progress
          aria-label={`已确认 ${pct}%`}
          percent={pct}
          size="small"
          showInfo={false}
          status={r.overdueCount ? 'exception' : undefined}
          style={{ margin: 0, width: 110 }}
        />
      </div>
    </Tooltip>
  );
}

export default function ChangeNoticeListPage() {
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const lines = useProductLines();
  const actions = useNoticeActions({ onSaved: (n) => navigate(noticeHref(n.id)) });

  // 发布变更通知 after an upload: a new draft about that version, once
  const newFileId = Number(params.get('newFileId'));
  useEffect(() => {
    if (!Number.isInteger(newFileId) || newFileId <= 0) return;
    actions.create({ newFileIds: [newFileId] });
    setParams({}, { replace: true });
  }, [newFileId]); // eslint-disable-line react-hooks/exhaustive-deps

  const fields: FilterField[] = [
    { kind: 'text', name: 'number', label: '通知编号', width: 130 },
    { kind: 'text', name: 'title', label: '标题', width: 150 },
    { kind: 'text', name: 'materialCode', label: '物料编码', width: 120 },
    {
      kind: 'select',
      name: 'productLineCode',
      label: '产品线',
      width: 110,
      options: (lines.data ?? []).map((l) => ({ value: l.code, label: l.name })),
    },
    {
      kind: 'select',
      name: 'status',
      label: '状态',
      width: 100,
      options: NOTICE_STATUSES.map((s) => ({ value: s, label: NOTICE_STATUS_LABELS[s] })),
    },
    {
      kind: 'dateRange',
      from: 'dateFrom',
      to: 'dateTo',
      label: '发布日期',
      placeholder: ['发布日期起', '发布日期止'],
      width: 230,
    },
    { kind: 'select', name: 'overdueOnly', label: '逾期', width: 100, options: [{ value: '1', label: '仅看逾期' }] },
  ];

  const statusCell = (r: NoticeRow) => (
    <Space size={0} wrap>
      <NoticeStatusTag status={r.status} />
      {r.overdueCount > 0 && <OverdueTag />}
    </Space>
  );
  const actionsColumn: ListColumns<NoticeRow>[number] = {
    title: '操作',
    key: 'actions',
    fixed: 'right',
    render: (_: unknown, r) => (
      <Space size={0} wrap>
        <Link to={noticeHref(r.id)}>
          <Button type="link" size="small">
            查看
          </Button>
        </Link>
        {actions.buttons(r).slice(0, 3)}
      </Space>
    ),
  };
  // on a phone (listColumns.tsx): number, title and due date; status and progress; the actions
  const columns: ListColumns<NoticeRow> = [
    {
      title: '通知编号',
      dataIndex: 'number',
      sorter: true,
      fixed: 'left',
      role: 'identity',
      render: (v: string, r) => <Link to={noticeHref(r.id)}>{v}</Link>,
    },
    { title: '标题', dataIndex: 'title', role: 'identity', ellipsis: true },
    { title: '状态', dataIndex: 'status', role: 'state', render: (_: unknown, r) => statusCell(r) },
    { title: '接收情况', key: 'progress', role: 'state', render: (_: unknown, r) => <Progressing r={r} /> },
    {
      title: '确认截止',
      dataIndex: 'dueDate',
      sorter: true,
      role: 'identity',
      render: (d: string, r) => <DueDate date={d} overdue={r.overdueCount > 0} />,
    },
    { title: '产品线', dataIndex: 'productLineName' },
    { title: '变更内容', dataIndex: 'changeSummary', ellipsis: true },
    {
      title: '发布时间',
      dataIndex: 'publishedAt',
      sorter: true,
      render: (v: string | null) => (v ? <span title={formatDateTime(v)}>{formatDateTime(v).slice(0, 10)}</span> : '—'),
    },
    // governed (NOTICE_COLUMNS): PagedTable drops it for a user it is hidden from
    { title: '发布人', dataIndex: 'publishedByName', render: (v: string | null) => v ?? '—' },
    actionsColumn,
  ];

  const notices = (
    <>
      <ListPage
        endpoint={noticesApi.page}
        columns={columns}
        fields={fields}
        rowKey="id"
        rowClassName={(r) => (r.status === 'PUBLISHED' && r.overdueCount > 0 ? OVERDUE_ROW : '')}
        filterTestId="notice-filters"
        extra={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => actions.create()} style={{ marginBottom: 12 }}>
            新建变更通知
          </Button>
        }
      />
      {actions.dialogs}
    </>
  );

  return (
    <UrlTabs
      items={[
        { key: 'notices', label: '变更通知', children: notices },
        { key: 'changes', label: '变更记录', children: <ChangeRecordsForStaff /> },
        { key: 'suppliers', label: '供应商确认情况', children: <SupplierNoticeStanding /> },
      ]}
    />
  );
}
