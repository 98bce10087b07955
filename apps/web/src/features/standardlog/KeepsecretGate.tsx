/**
 * The confidentiality agreement before a supplier's first view, print, download or confirmation.
 * `run(action)` asks hasKeepsecret; when the current agreement version is not accepted
 * yet it shows the agreement, and runs the action only after 同意并继续 (insertKeepsecret).
 * 取消 aborts: run resolves undefined. Should the server still refuse with the agreement code
 * (a new version published meanwhile), the agreement is shown again and the action retried.
 */
import { useCallback, useRef, useState, type ReactNode } from 'react';
import { App, Button, Checkbox, Modal, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { KEEPSECRET_REQUIRED_CODE, UI } from '@esm/contracts';
import { ApiError } from '../../api/client.ts';
import type { KeepsecretState } from '@esm/contracts';
import { acceptKeepsecret, keepsecretQuery } from './api.ts';
import type { Run } from '../files/index.ts';

interface Asking {
  agreement: KeepsecretState['agreement'];
  answer: (accepted: boolean) => void;
}

export function useKeepsecretGate(): { run: Run; gate: ReactNode } {
  const queryClient = useQueryClient();
  const [asking, setAsking] = useState<Asking | null>(null);
  // Several actions waiting at once share one question.
  const pendingAnswer = useRef<Promise<boolean> | null>(null);

  const ensureAccepted = useCallback(async (): Promise<boolean> => {
    const state = await queryClient.fetchQuery(keepsecretQuery);
    if (state.accepted) return true;
    pendingAnswer.current ??= new Promise<boolean>((resolve) =>
      setAsking({
        agreement: state.agreement,
        answer: (accepted) => {
          pendingAnswer.current = null;
          setAsking(null);
          resolve(accepted);
        },
      }),
    );
    return pendingAnswer.current;
  }, [queryClient]);

  const run = useCallback<Run>(
    async (action) => {
      if (!(await ensureAccepted())) return undefined;
      try {
        return await action();
      } catch (e) {
        if (!(e instanceof ApiError) || e.code !== KEEPSECRET_REQUIRED_CODE) throw e;
        await queryClient.invalidateQueries({ queryKey: keepsecretQuery.queryKey });
        if (!(await ensureAccepted())) return undefined;
        return action();
      }
    },
    [ensureAccepted, queryClient],
  );

  const gate = asking ? (
    <AgreementModal
      agreement={asking.agreement}
      onCancel={() => asking.answer(false)}
      onAccepted={(acceptedAt) => {
        queryClient.setQueryData(keepsecretQuery.queryKey, { accepted: true, acceptedAt, agreement: asking.agreement });
        asking.answer(true);
      }}
    />
  ) : null;
  return { run, gate };
}

function AgreementModal({
  agreement,
  onCancel,
  onAccepted,
}: {
  agreement: KeepsecretState['agreement'];
  onCancel: () => void;
  onAccepted: (acceptedAt: string) => void;
}) {
  const { message } = App.useApp();
  const [agreed, setAgreed] = useState(false);
  const [saving, setSaving] = useState(false);
  const accept = async () => {
    setSaving(true);
    try {
      await acceptKeepsecret(agreement.id);
      message.success('已签署保密协议');
      onAccepted(new Date().toISOString());
    } catch {
      // the client has shown the server's reason; the agreement stays open to try again
      setSaving(false);
    }
  };
  return (
    <Modal
      open
      width={UI.modalWidth}
      // above the file viewer that may have asked for it
      zIndex={1100}
      title={agreement.title}
      closable={false}
      mask={{ closable: false }}
      keyboard={false}
      onCancel={onCancel}
      footer={[
        <Button key="cancel" onClick={onCancel} disabled={saving}>
          取消
        </Button>,
        <Button key="ok" type="primary" disabled={!agreed} loading={saving} onClick={accept}>
          同意并继续
        </Button>,
      ]}
      className="esm-keepsecret-gate"
    >
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
        查看、打印、下载或确认图纸前，请阅读并同意以下保密协议（第 {agreement.version} 版）。
      </Typography.Paragraph>
      <div
        tabIndex={0}
        aria-label="保密协议全文"
        style={{
          maxHeight: '45vh',
          overflowY: 'auto',
          whiteSpace: 'pre-wrap',
          padding: 12,
          border: '1px solid rgba(128,128,128,0.3)',
          borderRadius: 6,
          lineHeight: 1.8,
        }}
      >
        {agreement.content}
      </div>
      <Checkbox checked={agreed} onChange={(e) => setAgreed(e.target.checked)} style={{ marginTop: 16 }}>
        我已阅读并同意上述保密协议
      </Checkbox>
    </Modal>
  );
}
