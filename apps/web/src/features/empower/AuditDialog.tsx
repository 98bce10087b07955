/**
 * 审批记录: every change of an application — who (account, name), when, from where, from which
 * state to which, and the comment — oldest first.
 */
import { Button, Empty, Modal, Spin, Tag, Typography, theme } from 'antd';
import { AUDIT_ACTION_LABELS, APPLICATION_STATUS_LABELS, UI, type AuditRow } from '@esm/contracts';
import { ErrorResult } from '../../components/ErrorResult.tsx';
import { actorText, formatDateTime } from '../../components/labels.tsx';
import { useAudit } from './api.ts';

const ACTION_COLORS: Record<AuditRow['action'], string> = {
  CREATE: 'default',
  UPDATE: 'default',
  SUBMIT: 'processing',
  WITHDRAW: 'warning',
  APPROVE: 'success',
  REJECT: 'error',
};

function Entry({ row, last }: { row: AuditRow; last: boolean }) {
  const { token } = theme.useToken();
  return (
    <li style={{ display: 'flex', gap: 12 }}>
      <div style={{ display: 'flex', flexDirection: 'column', alignItems: 'center' }}>
        <span
          style={{
            width: 10,
            height: 10,
            borderRadius: 5,
            marginTop: 6,
            background:
              row.action === 'REJECT'
                ? token.colorError
                : row.action === 'APPROVE'
                  ? token.colorSuccess
                  : token.colorPrimary,
          }}
        />
        {!last && <span style={{ flex: 1, width: 2, background: token.colorBorderSecondary, marginTop: 4 }} />}
      </div>
      <div style={{ paddingBottom: 16, minWidth: 0 }}>
        <div>
          <Tag color={ACTION_COLORS[row.action]}>{AUDIT_ACTION_LABELS[row.action]}</Tag>
          {/* who and from where are governed columns (APPLICATION_AUDIT_COLUMNS): absent when hidden for the user */}
          <Typography.Text strong>{actorText(row.userName, row.userAccount)}</Typography.Text>
        </div>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {[
            formatDateTime(row.createdAt),
            `${row.fromStatus ? `${APPLICATION_STATUS_LABELS[row.fromStatus]} → ` : ''}${APPLICATION_STATUS_LABELS[row.toStatus]}`,
            actorText(undefined, undefined, row.ip),
          ]
            .filter(Boolean)
            .join(' · ')}
        </Typography.Text>
        {row.comment && <Typography.Paragraph style={{ margin: '4px 0 0' }}>{row.comment}</Typography.Paragraph>}
      </div>
    </li>
  );
}

export function AuditDialog({
  id,
  side,
  onClose,
}: {
  id: number | null;
  side: 'supplier' | 'haier';
  onClose: () => void;
}) {
  const audit = useAudit(id ?? undefined, side);
  return (
    <Modal
      open={id !== null}
      title={`审批记录 · 申请 ${id ?? ''}`}
      width={UI.modalWidth}
      onCancel={onClose}
      footer={<Button onClick={onClose}>关闭</Button>}
      destroyOnHidden
    >
      {audit.isError ? (
        <ErrorResult
          error={audit.error}
          onRetry={() => audit.refetch()}
          notFound="申请不存在或无权查看"
          back={{ onBack: onClose }}
        />
      ) : !audit.data ? (
        <Spin />
      ) : audit.data.length === 0 ? (
        <Empty description="暂无记录" />
      ) : (
        <ol style={{ listStyle: 'none', padding: 0, margin: 0 }} data-testid="audit-trail">
          {audit.data.map((row, i) => (
            <Entry key={row.id} row={row} last={i === audit.data.length - 1} />
          ))}
        </ol>
      )}
    </Modal>
  );
}
