/**
 * /esm/system/notificationLog — 通知发送记录 (drawing admins): every notification mail, to whom,
 * about what, its state (待发送 / 已发送 / 失败), tries, the server's last answer and its times;
 * 重新发送 on a failed one (a button governed on 按钮与列权限).
 */
import { App, Button, Tag, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { DELIVERY_STATES, DELIVERY_STATE_LABELS, NOTIFICATION_KINDS, NOTIFICATION_KIND_LABELS, notificationsApi, type DeliveryRow } from '@esm/contracts';
import { call } from '../../../api/client.ts';
import { ListPage } from '../../../components/ListPage.tsx';
import type { FilterField } from '../../../components/FilterForm.tsx';
import type { ListColumns } from '../../../components/listColumns.tsx';
import { formatDateTime } from '../../../components/labels.tsx';
import { serverErrorText } from '../../../components/serverErrors.ts';
import { Permitted } from '../../../components/Permitted.tsx';
import { ExcelButton } from '../../../components/ExcelButton.tsx';
import { KindTag } from '../labels.tsx';
import { exportDeliveries } from '../api.ts';

const FIELDS: FilterField[] = [
  { kind: 'select', name: 'state', label: '状态', width: 110, options: DELIVERY_STATES.map((s) => ({ value: s, label: DELIVERY_STATE_LABELS[s] })) },
  { kind: 'select', name: 'kind', label: '通知类型', width: 160, options: NOTIFICATION_KINDS.map((k) => ({ value: k, label: NOTIFICATION_KIND_LABELS[k] })) },
  { kind: 'text', name: 'recipient', label: '收件人账号、姓名或邮箱', width: 220 },
  { kind: 'dateRange', from: 'dateFrom', to: 'dateTo', label: '创建日期' },
];

const STATE_COLORS = { PENDING: 'processing', SENT: 'success', FAILED: 'error' } as const;

function ResendButton({ row }: { row: DeliveryRow }) {
  const { message } = App.useApp();
  const qc = useQueryClient();
  if (row.state !== 'FAILED') return null;
  return (
    <Permitted endpoint={notificationsApi.resend}>
      <Button
        type="link"
        size="small"
        onClick={async () => {
          try {
            message.success((await call(notificationsApi.resend, { ids: [row.id] }, { silent: true })).message);
            await qc.invalidateQueries({ queryKey: [notificationsApi.deliveries.path] });
          } catch (e) {
            message.error(serverErrorText(e, '重新发送失败，请稍后重试'));
          }
        }}
      >
        重新发送
      </Button>
    </Permitted>
  );
}

/** On a phone (listColumns.tsx): recipient, what it was about, its state and 重新发送. */
const COLUMNS: ListColumns<DeliveryRow> = [
  { title: '收件人', dataIndex: 'recipientName', role: 'identity', render: (v: string, r) => `${v}（${r.recipientAccount}）` },
  { title: '邮箱', dataIndex: 'address', ellipsis: true },
  { title: '内容', dataIndex: 'subject', role: 'identity', ellipsis: true },
  { title: '类型', dataIndex: 'kind', render: (k: DeliveryRow['kind']) => <KindTag kind={k} /> },
  { title: '状态', dataIndex: 'state', role: 'state', render: (s: DeliveryRow['state']) => <Tag color={STATE_COLORS[s]}>{DELIVERY_STATE_LABELS[s]}</Tag> },
  { title: '尝试次数', dataIndex: 'tries' },
  { title: '服务器应答', dataIndex: 'lastAnswer', ellipsis: true, render: (v: string | null) => (v ? <Typography.Text type="secondary">{v}</Typography.Text> : '—') },
  { title: '创建时间', dataIndex: 'createdAt', sorter: true, render: (v: string) => formatDateTime(v) },
  { title: '发送时间', dataIndex: 'sentAt', render: (v: string | null) => formatDateTime(v) },
  { title: '操作', key: 'actions', fixed: 'right', render: (_: unknown, r) => <ResendButton row={r} /> },
];

export default function NotificationLogPage() {
  return (
    <ListPage
      endpoint={notificationsApi.deliveries}
      columns={COLUMNS}
      fields={FIELDS}
      rowKey="id"
      filterTestId="notification-log-filters"
      emptyText="暂无发送记录"
      extra={(filters) => (
        <div style={{ margin: '0 0 12px' }}>
          <Permitted endpoint={notificationsApi.exportExcel}>
            <ExcelButton run={() => exportDeliveries(filters as Parameters<typeof exportDeliveries>[0])} />
          </Permitted>
        </div>
      )}
    />
  );
}
