/** Shared renderers of archive fields (status, level, category, size, dates) for every archive page. */
import { Tag } from 'antd';
import dayjs from 'dayjs';
import {
  FILE_CATEGORY_LABELS,
  FILE_STATUS_LABELS,
  GRANT_STATE_LABELS,
  LOG_OUTCOME_LABELS,
  SECRET_LEVEL_LABELS,
  type FileCategory,
  type FileStatus,
  type GrantState,
  type LogOutcome,
  type SecretLevel,
} from '@esm/contracts';

const STATUS_COLORS: Record<FileStatus, string> = { EFFECTIVE: 'green', HISTORY: 'default', OBSOLETE: 'red' };
const LEVEL_COLORS: Record<SecretLevel, string> = {
  PUBLIC: 'default',
  INTERNAL: 'blue',
  SECRET: 'orange',
  CONFIDENTIAL: 'red',
};
const GRANT_COLORS: Record<GrantState, string> = { VALID: 'green', EXPIRED: 'red', NOT_YET: 'gold', NONE: 'default' };

export const StatusTag = ({ status }: { status: FileStatus }) => (
  <Tag color={STATUS_COLORS[status]}>{FILE_STATUS_LABELS[status]}</Tag>
);
export const SecretTag = ({ level }: { level: SecretLevel }) => (
  <Tag color={LEVEL_COLORS[level]}>{SECRET_LEVEL_LABELS[level]}</Tag>
);
export const GrantTag = ({ state }: { state: GrantState }) => (
  <Tag color={GRANT_COLORS[state]}>{GRANT_STATE_LABELS[state]}</Tag>
);
const OUTCOME_COLORS: Record<LogOutcome, string> = { OK: 'green', PARTIAL: 'orange', REFUSED: 'red' };
/** `text`: the result in full where the label alone says too little (不完整（已发送 X / Y 字节）). */
export const OutcomeTag = ({ outcome, text }: { outcome: LogOutcome; text?: string }) => (
  <Tag color={OUTCOME_COLORS[outcome]} style={text ? { whiteSpace: 'normal' } : undefined}>
    {text ?? LOG_OUTCOME_LABELS[outcome]}
  </Tag>
);
export const categoryLabel = (c: FileCategory) => FILE_CATEGORY_LABELS[c];

export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export const formatDateTime = (iso: string | null | undefined) =>
  iso ? dayjs(iso).format('YYYY-MM-DD HH:mm:ss') : '—';
export const formatDate = (d: string | null | undefined) => (d ? dayjs(d).format('YYYY-MM-DD') : '—');

/**
 * Who did something and from where, as an audit trail shows it: 张伟（demo3） · IP 10.0.0.5. A part
 * the user may not see — a governed column hidden for the user type, so absent from the
 * answer — is left out; an address the server did not record shows as —.
 */
export function actorText(name?: string, account?: string, ip?: string | null): string {
  const who = name && account ? `${name}（${account}）` : (name ?? account ?? '');
  return [who, ip === undefined ? '' : `IP ${ip ?? '—'}`].filter(Boolean).join(' · ');
}
