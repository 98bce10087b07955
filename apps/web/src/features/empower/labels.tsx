/** How the domain's states read on every page: tags, periods, who and what. */
import type { ReactNode } from 'react';
import { Tag, Typography, theme } from 'antd';
import { CheckCircleFilled, ExclamationCircleFilled, InfoCircleFilled } from '@ant-design/icons';
import dayjs from 'dayjs';
import {
  APPLICATION_STATUS_LABELS,
  GRANT_ROW_STATE_LABELS,
  GRANT_STATE_LABELS,
  type ApplicationStatus,
  type GrantRowState,
  type GrantState,
} from '@esm/contracts';

const STATUS_COLORS: Record<ApplicationStatus, string> = {
  DRAFT: 'default',
  SUBMITTED: 'processing',
  APPROVED: 'success',
  REJECTED: 'error',
  WITHDRAWN: 'warning',
};
export const ApplicationStatusTag = ({ status }: { status: ApplicationStatus }) => (
  <Tag color={STATUS_COLORS[status]}>{APPLICATION_STATUS_LABELS[status]}</Tag>
);

const GRANT_ROW_COLORS: Record<GrantRowState, string> = {
  VALID: 'green',
  NOT_YET: 'gold',
  EXPIRED: 'default',
  REVOKED: 'red',
};
export const GrantRowTag = ({ state }: { state: GrantRowState }) => (
  <Tag color={GRANT_ROW_COLORS[state]}>{GRANT_ROW_STATE_LABELS[state]}</Tag>
);

const GRANT_COLORS: Record<GrantState, string> = { VALID: 'green', EXPIRED: 'red', NOT_YET: 'gold', NONE: 'default' };
export const GrantStateTag = ({ state }: { state: GrantState }) => (
  <Tag color={GRANT_COLORS[state]}>{GRANT_STATE_LABELS[state]}</Tag>
);

export const ExpiringTag = () => <Tag color="orange">即将到期</Tag>;

/** An instant as the tables show it. */
export const minute = (iso: string | null | undefined) => (iso ? dayjs(iso).format('YYYY-MM-DD HH:mm') : '—');

/** A period of days, both included. */
export const dayPeriod = (from: string | null, until: string | null) => (from && until ? `${from} 至 ${until}` : '—');

/**
 * A code with its name under it. The name wraps to two lines within the width the table's
 * content gives it instead of being cut at a fixed width (`width` is no longer used).
 */
export function CodeName({ code, name }: { code: string; name: string | null | undefined; width?: number }) {
  return (
    <div style={{ lineHeight: 1.4, minWidth: 0 }} title={`${code} ${name ?? ''}`}>
      <div style={{ whiteSpace: 'nowrap' }}>{code}</div>
      <Typography.Text type="secondary" className="esm-cell-wrap" style={{ fontSize: 12 }}>
        {name}
      </Typography.Text>
    </div>
  );
}

/** A line of text in a tinted box — an info, warning or success note above a list or a form. */
export function Notice({
  kind = 'info',
  children,
  action,
  testId,
}: {
  kind?: 'info' | 'warning' | 'success' | 'error';
  children: ReactNode;
  action?: ReactNode;
  testId?: string;
}) {
  const { token } = theme.useToken();
  const colors = {
    info: [token.colorInfoBg, token.colorInfoBorder, token.colorInfo],
    warning: [token.colorWarningBg, token.colorWarningBorder, token.colorWarning],
    success: [token.colorSuccessBg, token.colorSuccessBorder, token.colorSuccess],
    error: [token.colorErrorBg, token.colorErrorBorder, token.colorError],
  }[kind];
  const Icon = kind === 'success' ? CheckCircleFilled : kind === 'info' ? InfoCircleFilled : ExclamationCircleFilled;
  return (
    <div
      role={kind === 'error' ? 'alert' : 'status'}
      data-testid={testId}
      style={{
        display: 'flex',
        gap: 8,
        alignItems: 'flex-start',
        padding: '8px 12px',
        marginBottom: 12,
        background: colors[0],
        border: `1px solid ${colors[1]}`,
        borderRadius: token.borderRadiusLG,
      }}
    >
      <Icon style={{ color: colors[2], marginTop: 4 }} />
      <div style={{ flex: 1, minWidth: 0 }}>{children}</div>
      {action}
    </div>
  );
}
