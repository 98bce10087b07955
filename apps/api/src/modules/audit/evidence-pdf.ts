/**
 * The evidence package's report.pdf: the package's facts for a reader — title, supplier,
 * subject, who made it and when, the chain heads it was made against — then each kind of row,
 * one line per row with its chain place and hash. The JSON beside it is what a machine checks;
 * the manifest hashes this report too.
 */
import {
  AUDIT_ACTION_LABELS,
  COUNTERSIGN_DECISION_LABELS,
  COUNTERSIGN_EVENT_LABELS,
  ISSUE_ACTION_LABELS,
  ISSUE_STATUS_LABELS,
  LOG_ACTION_LABELS,
  NOTICE_EVENT_LABELS,
} from '@esm/contracts';
import { cstDateTime } from '../../lib/dates.ts';
import { linesPdf, type Line } from '../../lib/text-pdf.ts';
import type { ChainHead } from './chain.ts';
import type { EvidenceContent } from './evidence.ts';
import type { EvidenceSubject } from './package-format.ts';

const GAP = '\u3000';
const at = (v: unknown) => (typeof v === 'string' && v ? cstDateTime(new Date(v)) : '—');
const text = (v: unknown) => (v == null || v === '' ? '—' : String(v));
const OUTCOMES: Record<string, string> = { OK: '成功', SENT: '已发送', REFUSED: '已拒绝' };

/**
 * The words each chained table's action codes are shown with on the portal's own pages, so the
 * report reads as those pages do; the code itself stays in the JSON beside it.
 */
const ACTION_LABELS: Record<string, Record<string, string>> = {
  access_log: LOG_ACTION_LABELS,
  notice_event: NOTICE_EVENT_LABELS,
  empower_audit: AUDIT_ACTION_LABELS,
  document_issue_message: ISSUE_ACTION_LABELS,
  countersign_event: COUNTERSIGN_EVENT_LABELS,
};
/** A code in words from `labels`, or the code itself when the map does not know it (an older row). */
const label = (labels: Record<string, string>, code: unknown) => labels[code as string] ?? text(code);
const actionOf = (table: string, code: unknown) => label(ACTION_LABELS[table] ?? {}, code);

interface Header {
  subject: EvidenceSubject;
  generatedAt: string;
  generatedBy: { account: string; name: string };
  heads: ChainHead[];
  headsDigest: string;
}

/** A chained row's content as stored (snake_case columns). */
type Content = Record<string, unknown>;

function chainLine(table: string, c: Content): string {
  switch (table) {
    case 'access_log': {
      return `${at(c.created_at)}${GAP}${actionOf(table, c.action)}·${label(OUTCOMES, c.outcome)}${GAP}${text(c.user_name)}（${text(c.user_account)}）${GAP}${text(c.standard_code)} ${text(c.version)}${GAP}复制码 ${text(c.copy_code)}${GAP}IP ${text(c.ip)}`;
    }
    case 'keepsecret_acceptance':
      return `${at(c.accepted_at)}${GAP}用户 ${text(c.user_id)} 接受保密协议（协议 ${text(c.agreement_id)}）`;
    default:
      return `${at(c.created_at)}${GAP}${actionOf(table, c.action)}${GAP}${text(c.user_name)}（${text(c.user_account)}）${c.ip ? `${GAP}IP ${text(c.ip)}` : ''}${c.detail || c.comment || c.text ? `${GAP}${text(c.detail ?? c.comment ?? c.text).slice(0, 80)}` : ''}`;
  }
}

function recordLine(name: string, r: Record<string, unknown>): Line[] {
  switch (name) {
    case 'grants':
      return [
        [
          `授权 ${text(r.id)}${GAP}物料 ${text(r.materialCode)}${GAP}${at(r.validFrom)} 至 ${at(r.validUntil)}${GAP}${r.imported ? '历史导入' : `申请 ${text(r.applicationId)}`}${GAP}审批人 ${text(r.approverName)}（${text(r.approverAccount)}）${at(r.approvedAt)}`,
          9,
          12,
        ],
        ...(r.revokedAt
          ? ([[`撤销：${at(r.revokedAt)} ${text(r.revokedByName)}：${text(r.revokeReason)}`, 9, 24]] as Line[])
          : []),
      ];
    case 'files':
      return [
        [`${text(r.standardCode)}${GAP}${text(r.name)}${GAP}版本 ${text(r.version)}${GAP}${text(r.fileName)}`, 9, 12],
        [`SHA-256: ${text(r.sha256)}`, 8, 24],
      ];
    case 'notice_confirmed_files':
      return [
        [
          `${text(r.noticeNumber)}${GAP}${text(r.supplierCode)}${GAP}${text(r.standardCode)} ${text(r.version)}${GAP}查看 ${at(r.viewedAt)}${GAP}SHA-256: ${text(r.sha256)}`,
          8,
          12,
        ],
      ];
    case 'notice_recipients':
      return [
        [
          `${text(r.noticeNumber)}${GAP}${text(r.supplierCode)} ${text(r.supplierName)}${GAP}阅读 ${at(r.readAt)} ${text(r.readByName)}${GAP}确认 ${at(r.confirmedAt)} ${text(r.confirmedByName)} IP ${text(r.confirmedIp)}`,
          9,
          12,
        ],
      ];
    case 'countersign_signatures':
      return [
        [
          `${text(r.number)} 第 ${text(r.round)} 轮${GAP}${text(r.userName)}（${text(r.userAccount)}）${GAP}${label(COUNTERSIGN_DECISION_LABELS, r.decision)}${GAP}${at(r.createdAt)}${GAP}签署内容 SHA-256: ${text(r.contentSha256)}`,
          8,
          12,
        ],
      ];
    case 'questions':
      return [
        [
          `${text(r.number)}${GAP}${text(r.standardCode)} ${text(r.version)}${GAP}${text(r.title)}${GAP}${label(ISSUE_STATUS_LABELS, r.status)}`,
          9,
          12,
        ],
      ];
    default:
      return [[JSON.stringify(r).slice(0, 300), 8, 12]];
  }
}

function reportLines(content: EvidenceContent, h: Header): Line[] {
  const s = h.subject;
  const lines: Line[] = [
    ['证据包报告', 18],
    [`对象：${s.title}`, 10],
    ...(s.supplierCode ? ([[`供应商：${s.supplierCode} ${s.supplierName ?? ''}`, 10]] as Line[]) : []),
    ...(s.materialCodes.length ? ([[`物料：${s.materialCodes.join('、')}`, 10]] as Line[]) : []),
    [`生成人：${h.generatedBy.name}（${h.generatedBy.account}）${GAP}生成时间：${at(h.generatedAt)}`, 10],
    [`审计链头摘要（SHA-256）：${h.headsDigest}`, 8],
    ['离线校验：pnpm audit:verify --package 本 ZIP 文件（逐行重算哈希、核对相邻行的衔接、清单哈希及所依据的链头）', 8],
    ['所依据的链头', 12],
    ...h.heads.map((x): Line => [`${x.table}：链位置 ${x.seq}${GAP}${x.hash}`, 8, 12]),
  ];
  for (const c of content.chains) {
    lines.push([`${c.label}（${c.rows.length} 行，链上记录）`, 12]);
    if (!c.rows.length) lines.push(['无', 9, 12]);
    for (const r of c.rows) {
      lines.push([chainLine(c.table, JSON.parse(r.content) as Content), 9, 12]);
      lines.push([`${c.table} id ${r.id}${GAP}链位置 ${r.seq}${GAP}哈希 ${r.rowHash}`, 7, 24]);
    }
  }
  for (const r of content.records) {
    if (
      r.name === 'agreements' ||
      r.name === 'countersign_rounds' ||
      r.name === 'countersigns' ||
      r.name === 'applications' ||
      r.name === 'notice' ||
      r.name === 'notice_changes'
    )
      continue; // in the JSON; the lines above name them
    lines.push([`${r.label}（${r.rows.length} 行）`, 12]);
    if (!r.rows.length) lines.push(['无', 9, 12]);
    for (const row of r.rows) lines.push(...recordLine(r.name, row));
  }
  return lines;
}

export function evidencePdf(content: EvidenceContent, h: Header): Promise<Uint8Array> {
  return linesPdf(reportLines(content, h), { title: `证据包报告 ${h.subject.title}`, date: new Date(h.generatedAt) });
}
