/**
 * /esm/notifications — 我的通知: every notification of the signed-in user, newest first, with what
 * happened, its due date and a link to the page it concerns; filter by type and read state;
 * 全部已读. Opening one marks it read.
 */
import { Badge, Button, Space, Typography } from 'antd';
import { useNavigate } from 'react-router';
import {
  NOTIFICATION_KINDS,
  NOTIFICATION_KIND_LABELS,
  NOTIFICATION_READ_LABELS,
  NOTIFICATION_READ_STATES,
  notificationsApi,
  type NotificationRow,
} from '@esm/contracts';
import { ListPage } from '../../../components/ListPage.tsx';
import type { FilterField } from '../../../components/FilterForm.tsx';
import type { ListColumns } from '../../../components/listColumns.tsx';
import { formatDateTime } from '../../../components/labels.tsx';
import { useMarkRead, useNotificationBell } from '../api.ts';
import { KindTag } from '../labels.tsx';

const FIELDS: FilterField[] = [
  {
    kind: 'select',
    name: 'kind',
    label: '类型',
    width: 160,
    options: NOTIFICATION_KINDS.map((k) => ({ value: k, label: NOTIFICATION_KIND_LABELS[k] })),
  },
  {
    kind: 'select',
    name: 'state',
    label: '状态',
    width: 100,
    options: NOTIFICATION_READ_STATES.map((s) => ({ value: s, label: NOTIFICATION_READ_LABELS[s] })),
  },
];

function useOpen() {
  const navigate = useNavigate();
  const markRead = useMarkRead();
  return (n: NotificationRow) => {
    if (!n.readAt) void markRead([n.id]);
    navigate(n.linkPath);
  };
}

export default function NotificationsPage() {
  const open = useOpen();
  const markRead = useMarkRead();
  const unread = useNotificationBell().data?.unread ?? 0;
  /** On a phone (listColumns.tsx): what happened, its type and time, and 查看. */
  const columns: ListColumns<NotificationRow> = [
    {
      title: '内容',
      dataIndex: 'subject',
      role: 'identity',
      render: (v: string, r) => (
        <Space direction="vertical" size={0}>
          <Typography.Link strong={!r.readAt} onClick={() => open(r)} data-testid="notification-subject">
            {!r.readAt && <Badge status="processing" />} {v}
          </Typography.Link>
          {r.body && <Typography.Text type="secondary">{r.body}</Typography.Text>}
        </Space>
      ),
    },
    { title: '类型', dataIndex: 'kind', role: 'state', render: (k: NotificationRow['kind']) => <KindTag kind={k} /> },
    { title: '截止日期', dataIndex: 'dueDate', render: (d: string | null) => d ?? '—' },
    {
      title: '时间',
      dataIndex: 'createdAt',
      sorter: true,
      role: 'identity',
      render: (v: string) => formatDateTime(v).slice(0, 16),
    },
    {
      title: '状态',
      dataIndex: 'readAt',
      render: (v: string | null) => (v ? '已读' : <Typography.Text strong>未读</Typography.Text>),
    },
    {
      title: '操作',
      key: 'actions',
      fixed: 'right',
      render: (_: unknown, r) => (
        <Button type="link" size="small" onClick={() => open(r)}>
          查看
        </Button>
      ),
    },
  ];
  return (
    <ListPage
      endpoint={notificationsApi.page}
      columns={columns}
      fields={FIELDS}
      rowKey="id"
      filterTestId="notification-filters"
      extra={
        <Button disabled={unread === 0} onClick={() => void markRead()} data-testid="notifications-read-all">
          全部已读
        </Button>
      }
      emptyText="暂无通知"
    />
  );
}
