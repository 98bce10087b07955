/**
 * /esm/system/notificationLog — 通知发送记录 (drawing admins): every notification mail, to whom,
 * about what, its state (待发送 / 已发送 / 失败 / 已退回), tries, the server's last answer (or the
 * bounce text), the daily digest that carried it, and its times; 重新发送 on a failed one and
 * 标记为已退回 on a sent one, and 修改邮箱 of the recipient — where an admin sees the bounce, they fix
 * the address (buttons governed on 按钮与列权限).
 */
import { useState } from 'react';
import { App, Button, Flex, Form, Input, Modal, Tag, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import {
  DELIVERY_STATE_FILTER_LABELS,
  DELIVERY_STATE_LABELS,
  DELIVERY_TRANSITIONS,
  NOTIFICATION_KINDS,
  NOTIFICATION_KIND_LABELS,
  ZBounceSchema,
  ZUserEmailSchema,
  canMove,
  notificationsApi,
  type DeliveryRow,
} from '@esm/contracts';
import { useFormSubmit } from '../../../components/useFormSubmit.ts';
import { zodRule } from '../../../components/zodRule.ts';
import { ReasonDialog } from '../../../components/ReasonDialog.tsx';
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
  {
    kind: 'select',
    name: 'state',
    label: '状态',
    width: 200,
    options: Object.entries(DELIVERY_STATE_FILTER_LABELS).map(([value, label]) => ({ value, label })),
  },
  {
    kind: 'select',
    name: 'kind',
    label: '通知类型',
    width: 160,
    options: NOTIFICATION_KINDS.map((k) => ({ value: k, label: NOTIFICATION_KIND_LABELS[k] })),
  },
  { kind: 'text', name: 'recipient', label: '收件人账号、姓名或邮箱', width: 220 },
  { kind: 'dateRange', from: 'dateFrom', to: 'dateTo', label: '创建日期' },
];

const STATE_COLORS = { PENDING: 'processing', SENT: 'success', FAILED: 'error', BOUNCED: 'warning' } as const;

/** 标记为已退回: an admin read the bounce in the sender's mailbox and copies its text here. */
function BounceButton({ row }: { row: DeliveryRow }) {
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  if (!canMove(DELIVERY_TRANSITIONS, 'bounce', row.state)) return null;
  const refresh = () => qc.invalidateQueries({ queryKey: [notificationsApi.deliveries.path] });
  return (
    <Permitted endpoint={notificationsApi.bounce}>
      <Button type="link" size="small" danger onClick={() => setOpen(true)}>
        {DELIVERY_TRANSITIONS.bounce.label}
      </Button>
      <ReasonDialog
        open={open}
        name="bounce"
        title="确认该邮件已被退回？"
        okText={DELIVERY_TRANSITIONS.bounce.label}
        reasonLabel="退信内容"
        placeholder="例如 550 5.1.1 用户不存在（从退信邮件中复制）"
        reasonRule={ZBounceSchema.shape.reason}
        maxLength={1000}
        description={`发往 ${row.address} 的「${row.subject}」将记为已退回（未送达），退信内容记入服务器应答。`}
        onSubmit={async (v) =>
          (await call(notificationsApi.bounce, { id: row.id, reason: v.reason }, { silent: true })).message
        }
        failText="标记失败，请稍后重试"
        onClose={() => setOpen(false)}
        onDone={() => {
          setOpen(false);
          void refresh();
        }}
        onFailed={() => void refresh()}
      />
    </Permitted>
  );
}

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

/** 修改邮箱: the recipient's address for the next mails (this row keeps the address it went to). */
function EmailButton({ row }: { row: DeliveryRow }) {
  const [open, setOpen] = useState(false);
  const [form] = Form.useForm<{ email: string }>();
  const { submit, busy } = useFormSubmit(form, { failText: '修改失败，请稍后重试' });
  const save = async () => {
    if (
      await submit(
        async (v) =>
          (
            await call(
              notificationsApi.updateUserEmail,
              { account: row.recipientAccount, email: v.email },
              { silent: true },
            )
          ).message,
      )
    )
      setOpen(false);
  };
  return (
    <Permitted endpoint={notificationsApi.updateUserEmail}>
      <Button type="link" size="small" onClick={() => setOpen(true)}>
        修改邮箱
      </Button>
      <Modal
        open={open}
        title={`修改 ${row.recipientName}（${row.recipientAccount}）的邮箱`}
        okText="保存"
        cancelText="取消"
        okButtonProps={{ loading: busy }}
        onOk={() => void save()}
        onCancel={() => setOpen(false)}
        destroyOnHidden
      >
        <Form form={form} name="user-email" layout="vertical" preserve={false} initialValues={{ email: row.address }}>
          <Form.Item
            name="email"
            label="邮箱"
            rules={[zodRule(ZUserEmailSchema.shape.email)]}
            extra="以后的通知邮件发往此地址；留空则不再发邮件。"
          >
            <Input placeholder="例如 zhangwei@example.com" maxLength={254} autoComplete="off" />
          </Form.Item>
        </Form>
      </Modal>
    </Permitted>
  );
}

/**
 * Seven columns, so the log fits a 1366 screen whatever a row holds: the kind tag above the
 * subject, the number of tries under the state, the send time and the digest under the creation
 * time. On a phone (listColumns.tsx): recipient, what it was about, its state and the actions.
 */
const secondary = (text: string) => (
  <>
    <br />
    <Typography.Text type="secondary">{text}</Typography.Text>
  </>
);

const COLUMNS: ListColumns<DeliveryRow> = [
  {
    title: '收件人',
    dataIndex: 'recipientName',
    role: 'identity',
    render: (v: string, r) => (
      <span style={{ whiteSpace: 'nowrap' }}>
        {v}
        {secondary(r.recipientAccount)}
      </span>
    ),
  },
  { title: '邮箱', dataIndex: 'address', ellipsis: true },
  {
    title: '内容',
    dataIndex: 'subject',
    role: 'identity',
    render: (v: string, r) => (
      <>
        <KindTag kind={r.kind} />
        <div className="esm-cell-wrap" title={v}>
          {v}
        </div>
      </>
    ),
  },
  {
    title: '状态',
    dataIndex: 'state',
    role: 'state',
    render: (s: DeliveryRow['state'], r) => (
      <span style={{ whiteSpace: 'nowrap' }}>
        <Tag color={STATE_COLORS[s]}>{DELIVERY_STATE_LABELS[s]}</Tag>
        {r.tries ? secondary(`已尝试 ${r.tries} 次`) : null}
      </span>
    ),
  },
  {
    title: '服务器应答',
    dataIndex: 'lastAnswer',
    ellipsis: true,
    render: (v: string | null) => (v ? <Typography.Text type="secondary">{v}</Typography.Text> : '—'),
  },
  {
    title: '创建 / 发送时间',
    dataIndex: 'createdAt',
    sorter: true,
    render: (v: string, r) => (
      <span style={{ whiteSpace: 'nowrap' }}>
        {formatDateTime(v)}
        {secondary(
          r.sentAt
            ? `发送 ${formatDateTime(r.sentAt)}`
            : r.digestId
              ? `日报 #${r.digestId}`
              : r.viaDigest
                ? '待汇总到日报'
                : '未发送',
        )}
        {r.sentAt && r.digestId ? secondary(`日报 #${r.digestId}`) : null}
      </span>
    ),
  },
  {
    title: '操作',
    key: 'actions',
    fixed: 'right',
    render: (_: unknown, r) => (
      <Flex vertical align="start">
        <ResendButton row={r} />
        <BounceButton row={r} />
        <EmailButton row={r} />
      </Flex>
    ),
  },
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
