/**
 * The manufacturer's actions on a notice — 编辑, 发布, 撤回, 关闭, 导出 — and the dialogs they open,
 * shared by the notice list and the notice page. Each asks first where it cannot be undone
 * (publish shows who will receive it; close and withdraw say what follows), then says what
 * happened in the server's words. Which actions a notice offers follows the transition table.
 */
import { useState, type ReactNode } from 'react';
import { App, Button, Typography } from 'antd';
import {
  NOTICE_EDITABLE,
  NOTICE_LIST_PAGE,
  NOTICE_TRANSITIONS,
  UI,
  ZNoticeWithdrawSchema,
  canMove,
  noticesApi,
  type NoticeDetail,
  type NoticeRow,
} from '@esm/contracts';
import { call } from '../../api/client.ts';
import { ReasonDialog } from '../../components/ReasonDialog.tsx';
import { useBusyAction } from '../../components/useBusyAction.ts';
import { closeNotice, exportRecipients, publishNotice, useRefreshNotices, withdrawNotice } from './api.ts';
import { NoticeForm } from './NoticeForm.tsx';
import { usePageButtons } from '../../lib/permissions.ts';

type Notice = Pick<NoticeRow, 'id' | 'number' | 'title' | 'status' | 'recipientCount'>;

function WithdrawDialog({ notice, onClose, onDone }: { notice: Notice; onClose: () => void; onDone: () => void }) {
  return (
    <ReasonDialog
      open
      name="withdraw"
      title="撤回变更通知？"
      okText="确认撤回"
      reasonLabel="撤回原因"
      placeholder="请填写撤回原因，供应商可见"
      reasonRule={ZNoticeWithdrawSchema.shape.reason}
      description={`${notice.number} ${notice.title} 撤回后，${notice.recipientCount} 家供应商将看到「已撤回」及撤回原因，不能再确认；撤回不能恢复。`}
      onSubmit={async ({ reason }) => {
        await withdrawNotice(notice.id, reason);
        return `已撤回 ${notice.number}`;
      }}
      failText="撤回失败"
      onClose={onClose}
      onDone={onDone}
    />
  );
}

export interface NoticeActions {
  /** The buttons a notice offers in its state. */
  buttons: (notice: Notice, opts?: { size?: 'small' | 'middle'; link?: boolean }) => ReactNode[];
  /** Opens the form for a new draft (optionally about versions already picked). */
  create: (preset?: { newFileIds: number[] }) => void;
  dialogs: ReactNode;
}

export function useNoticeActions({ onSaved }: { onSaved?: (notice: NoticeDetail) => void } = {}): NoticeActions {
  const { modal } = App.useApp();
  const refresh = useRefreshNotices();
  const [form, setForm] = useState<{ notice?: NoticeDetail; preset?: { newFileIds: number[] } } | null>(null);
  const [withdrawing, setWithdrawing] = useState<Notice | null>(null);
  // 发布, 撤回, 关闭, 导出, 催办: the page's buttons as the permissions give them
  const allowed = usePageButtons(NOTICE_LIST_PAGE);
  const { busy, setBusy, run } = useBusyAction(refresh);

  const edit = async (n: Notice) => {
    setBusy(`edit-${n.id}`);
    try {
      setForm({ notice: (await call(noticesApi.detail, { id: n.id })).data });
    } catch {
      // the client has shown why
    } finally {
      setBusy(null);
    }
  };

  const publish = async (n: Notice) => {
    setBusy(`publish-${n.id}`);
    let preview;
    try {
      preview = (await call(noticesApi.previewRecipients, { id: n.id })).data;
    } catch {
      setBusy(null);
      return;
    }
    setBusy(null);
    modal.confirm({
      title: `发布 ${n.number}？`,
      width: UI.modalWidth,
      okText: '发布',
      cancelText: '取消',
      content:
        preview.length === 0 ? (
          <Typography.Text type="danger">受影响的物料目前没有持有有效授权的供应商，发布将被拒绝。</Typography.Text>
        ) : (
          <div data-testid="publish-preview">
            <Typography.Paragraph>
              将通知以下 {preview.length} 家供应商（名单在发布时确定，之后新获授权的供应商不会收到）：
            </Typography.Paragraph>
            <ul style={{ maxHeight: 200, overflowY: 'auto', paddingLeft: 20, margin: 0 }}>
              {preview.map((p) => (
                <li key={p.supplierCode}>
                  {p.supplierCode} {p.supplierName}
                  <Typography.Text type="secondary">
                    （{p.basis.map((b) => b.materialCode).join('、')}）
                  </Typography.Text>
                </li>
              ))}
            </ul>
          </div>
        ),
      onOk: () => run(`publish-${n.id}`, async () => (await publishNotice(n.id)).message, '发布失败'),
    });
  };

  const close = (n: Notice) =>
    modal.confirm({
      title: `关闭 ${n.number}？`,
      width: UI.confirmWidth,
      okText: '关闭通知',
      okButtonProps: { danger: true },
      cancelText: '取消',
      content: '关闭后供应商不能再确认；尚未确认的供应商将保留为未确认（逾期的仍记为逾期）。',
      onOk: () => run(`close-${n.id}`, async () => (await closeNotice(n.id)).message, '关闭失败'),
    });

  const doExport = (n: Notice) =>
    run(`export-${n.id}`, async () => `已导出：${await exportRecipients({ id: n.id })}`, '导出失败');

  const buttons: NoticeActions['buttons'] = (n, { size = 'small', link = true } = {}) => {
    const type = link ? 'link' : 'default';
    const b = (
      key: string,
      label: string,
      onClick: () => void,
      extra: { danger?: boolean; primary?: boolean } = {},
    ) => (
      <Button
        key={key}
        size={size}
        type={extra.primary && !link ? 'primary' : type}
        danger={extra.danger}
        loading={busy === `${key}-${n.id}`}
        onClick={onClick}
      >
        {label}
      </Button>
    );
    const out: ReactNode[] = [];
    const may = (code: string) => allowed.has(code);
    if (NOTICE_EDITABLE.includes(n.status)) out.push(b('edit', '编辑', () => edit(n)));
    if (may('publish') && canMove(NOTICE_TRANSITIONS, 'publish', n.status))
      out.push(b('publish', NOTICE_TRANSITIONS.publish.label, () => publish(n), { primary: true }));
    if (may('close') && canMove(NOTICE_TRANSITIONS, 'close', n.status))
      out.push(b('close', NOTICE_TRANSITIONS.close.label, () => close(n)));
    if (may('withdraw') && canMove(NOTICE_TRANSITIONS, 'withdraw', n.status))
      out.push(b('withdraw', NOTICE_TRANSITIONS.withdraw.label, () => setWithdrawing(n), { danger: true }));
    if (may('export') && n.status !== 'DRAFT') out.push(b('export', '导出', () => doExport(n)));
    return out;
  };

  const dialogs = (
    <>
      {form && (
        <NoticeForm
          notice={form.notice}
          preset={form.preset}
          onClose={() => setForm(null)}
          onSaved={(saved) => {
            setForm(null);
            void refresh();
            onSaved?.(saved);
          }}
        />
      )}
      {withdrawing && (
        <WithdrawDialog
          notice={withdrawing}
          onClose={() => setWithdrawing(null)}
          onDone={() => {
            setWithdrawing(null);
            void refresh();
          }}
        />
      )}
    </>
  );
  return { buttons, create: (preset) => setForm({ preset }), dialogs };
}
