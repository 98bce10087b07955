/**
 * The sign-off sheet (签核单) of a completed countersign list: the document, every round with its
 * signatures (who, supplier or department, decision, time, IP, the sha256 of the content signed)
 * and the file versions with their sha256 — as text in a PDF with the CJK font embedded (a subset,
 * lib/watermark.ts), so it can be searched and its words extracted. It is written from
 * the frozen rounds, so every download of a list has the same content; each copy is then stamped
 * for its taker and its download logged in one transaction with the list's event
 * (`downloadSheet`), as a file from the archive is.
 */
import { COUNTERSIGN_DECISION_LABELS, REDACTED_NAME_TEXT, type CountersignDetail } from '@esm/contracts';
import type { Db } from '../../db/database.ts';
import { cstDateTime } from '../../lib/dates.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { conflict } from '../../plugins/errors.ts';
import { writeAccessLog, type ClientInfo } from '../../lib/access-log.ts';
import { contentDisposition, stampPdf, watermarkText } from '../../lib/watermark.ts';
import { linesPdf, type Line } from '../../lib/text-pdf.ts';
import { countersignDetail } from './reads.ts';
import { writeEvent, type Side } from './rules.ts';

/** A wide gap between fields of a line (an ideographic space). */
const GAP = '\u3000';
const at = (iso: string | null) => (iso ? cstDateTime(new Date(iso)) : '—');

function sheetLines(d: CountersignDetail): Line[] {
  // a person the caller's column rules hide (创建人, 操作记录·操作人) is printed as hidden, as the page shows it
  const who = (v: string | null | undefined) => v ?? REDACTED_NAME_TEXT;
  const lines: Line[] = [
    ['会签单签核单', 18],
    [`编号：${d.number}${GAP}${GAP}状态：已完成${GAP}${GAP}完成时间：${at(d.completedAt)}`, 10],
    [`标题：${d.title}`, 10],
    [`供应商：${d.supplierCode} ${d.supplierName}`, 10],
    [
      `关联变更通知：${d.noticeNumber ?? '无'}${GAP}${GAP}会签截止日期：${d.dueDate}${GAP}${GAP}发起人：${who(d.createdByName)}`,
      10,
    ],
    ['会签事项', 12],
    ...d.items.split(/\r?\n/).map((t): Line => [t, 10, 12]),
    ['涉及文件版本（SHA-256）', 12],
  ];
  for (const f of d.files) {
    lines.push([`${f.standardCode}${GAP}${f.name}${GAP}版本 ${f.version}${GAP}${f.fileName}`, 10, 12]);
    lines.push([`SHA-256: ${f.sha256}`, 8, 24]);
  }
  for (const r of d.rounds) {
    const outcome = r.outcome === 'COMPLETED' ? '全部同意，会签完成' : r.outcome === 'RETURNED' ? '已退回' : '会签中';
    lines.push([`第 ${r.round} 轮${GAP}下发：${at(r.issuedAt)} ${who(r.issuedByName)}${GAP}结果：${outcome}`, 12]);
    lines.push([`本轮内容 SHA-256: ${r.contentSha256}`, 8, 12]);
    for (const s of r.signatures) {
      const side = s.supplierCode ? `供应商 ${s.supplierCode} ${s.supplierName ?? ''}` : `我方 ${s.department ?? ''}`;
      const step = s.step === 0 ? '供应商会签' : `我方会签 ${s.step}`;
      lines.push([`${step}：${who(s.userName)}${s.userAccount ? `（${s.userAccount}）` : ''}${GAP}${side}`, 10, 12]);
      lines.push([`意见：${COUNTERSIGN_DECISION_LABELS[s.decision]}${s.comment ? `：${s.comment}` : ''}`, 10, 24]);
      lines.push([`时间：${at(s.createdAt)}${GAP}IP：${s.ip ?? '—'}${GAP}签署内容 SHA-256: ${s.contentSha256}`, 8, 24]);
    }
  }
  return lines;
}

/** Writes the sheet of a completed list (deterministic: dated by its completion). */
export function sheetPdf(d: CountersignDetail): Promise<Uint8Array> {
  return linesPdf(sheetLines(d), { title: `会签单签核单 ${d.number}`, date: new Date(d.completedAt ?? d.createdAt) });
}

export interface SheetFile {
  bytes: Uint8Array;
  /** The access log's SENT row its delivery is recorded against (lib/access-log-delivery.ts). */
  logId: number;
  contentDisposition: string;
}

/**
 * downloadSheet: the caller's stamped copy of a completed list's sheet; the access log's DOWNLOAD
 * row (SENT; its delivery row follows when the response ends) and the list's DOWNLOAD event
 * commit together before the bytes leave.
 */
export async function downloadSheet(
  db: Db,
  user: SessionUser,
  id: number,
  side: Side,
  client: ClientInfo,
  now = new Date(),
  /** The detail as the caller may see it (the internal side's governed columns: the sheet prints what the page shows). */
  govern: (d: CountersignDetail) => CountersignDetail = (d) => d,
): Promise<SheetFile> {
  const d = govern(await countersignDetail(db, user, id, side, now));
  if (d.status !== 'COMPLETED') throw conflict('会签单尚未完成：全部会签后才生成签核单');
  const stamp = {
    supplierName: user.isSupplier ? user.supplierName : null,
    account: user.account,
    at: now,
    ip: client.ip,
  };
  const bytes = await stampPdf(await sheetPdf(d), watermarkText(stamp));
  const fileName = `会签单签核单_${d.number}.pdf`;
  const logId = await db.$transaction(async (tx) => {
    const row = await writeAccessLog(tx, {
      action: 'DOWNLOAD',
      outcome: 'SENT',
      user,
      ...client,
      document: { code: d.number, fileName, version: `第${d.round}轮` },
    });
    await writeEvent(tx, { id, round: d.round, action: 'DOWNLOAD', user, client, at: now, detail: fileName });
    return row.id;
  });
  return { bytes, logId, contentDisposition: contentDisposition('attachment', fileName) };
}
