/**
 * The evidence package (证据包): for a supplier and a material or drawing, or for a change
 * notice, every row that records what the supplier could see and did — one ZIP an auditor takes
 * away: `manifest.json` (subject, who made it and when, the chain head of every chained table at
 * that moment, and the sha256 of every other entry), `report.pdf` (the same facts for a reader,
 * evidence-pdf.ts), `chain/<table>.json` (the chained rows exactly as hashed: their content text,
 * chain place, previous hash and hash) and `records/<name>.json` (state that is not an act:
 * grants, applications, file versions, recipients, rounds, signatures, questions).
 * `pnpm audit:verify --package FILE.zip` (package-verify.ts) checks it with nothing but the file.
 *
 * Why the rows are complete (not masked by the column rules) and who may have it: see
 * EVIDENCE_PACKAGE_KIND in the contracts.
 */
import JSZip from 'jszip';
import type { z } from 'zod';
import {
  EVIDENCE_PACKAGE_KIND,
  type ZNoticeEvidenceRequestSchema,
  type ZSubjectEvidenceRequestSchema,
} from '@esm/contracts';
import type { Db } from '../../db/database.ts';
import { badRequest, notFound } from '../../plugins/errors.ts';
import { cstStamp } from '../../lib/dates.ts';
import { writeAccessLog, type ClientInfo } from '../../lib/access-log.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { CHAINED_TABLES, CONTENT_SQL, GENESIS_HASH, ident, type ChainHead } from './chain.ts';
import { evidencePdf } from './evidence-pdf.ts';
import {
  headsDigestOf,
  manifestHashOf,
  sha256,
  type ChainFile,
  type EvidenceManifest,
  type EvidenceSubject,
  type ManifestEntry,
  type PackagedRow,
  type RecordFile,
} from './package-format.ts';

const labelOf = (table: string) => CHAINED_TABLES.find((t) => t.table === table)?.label ?? table;

/** The chained rows of `table` that `where` (on alias x, parameters $1…) picks, in chain order. */
async function chained(db: Db, table: string, where: string, ...params: unknown[]): Promise<ChainFile> {
  const rows = await db.$queryRawUnsafe<PackagedRow[]>(
    `SELECT id, chain_seq AS seq, prev_hash AS "prevHash", row_hash AS "rowHash", ${CONTENT_SQL} AS content
     FROM ${ident(table)} x WHERE chain_seq IS NOT NULL AND (${where}) ORDER BY chain_seq`,
    ...params,
  );
  return { table, label: labelOf(table), rows };
}

/** Every chained table's head now (read after the rows, so every packaged row is at or before it). */
async function currentHeads(db: Db): Promise<ChainHead[]> {
  const heads: ChainHead[] = [];
  for (const t of CHAINED_TABLES) {
    const [h] = await db.$queryRawUnsafe<{ seq: number; hash: string }[]>(
      `SELECT chain_seq AS seq, row_hash AS hash FROM ${ident(t.table)} WHERE chain_seq IS NOT NULL ORDER BY chain_seq DESC LIMIT 1`,
    );
    heads.push({ table: t.table, seq: h?.seq ?? 0, hash: h?.hash ?? GENESIS_HASH });
  }
  return heads;
}

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
const day = (d: Date | null | undefined) => (d ? d.toISOString().slice(0, 10) : null);

async function fileRecords(db: Db, ids: number[]): Promise<Record<string, unknown>[]> {
  if (!ids.length) return [];
  const files = await db.standardFile.findMany({
    where: { id: { in: ids } },
    orderBy: [{ standardCode: 'asc' }, { versionNo: 'asc' }],
  });
  return files.map((f) => ({
    id: f.id,
    standardCode: f.standardCode,
    name: f.name,
    version: f.version,
    materialCode: f.materialCode,
    status: f.status,
    secretLevel: f.secretLevel,
    effectiveDate: day(f.effectiveDate),
    obsoletedAt: iso(f.obsoletedAt),
    fileName: f.fileName,
    fileSize: f.fileSize,
    sha256: f.sha256,
  }));
}

async function recipientRecords(db: Db, where: { noticeId?: { in: number[] } | number; supplierCode?: string }) {
  const recipients = await db.noticeRecipient.findMany({
    where,
    include: { confirmedFiles: { orderBy: { fileId: 'asc' } }, notice: { select: { number: true } } },
    orderBy: [{ noticeId: 'asc' }, { supplierCode: 'asc' }],
  });
  const rows = recipients.map((r) => ({
    noticeId: r.noticeId,
    noticeNumber: r.notice.number,
    supplierCode: r.supplierCode,
    supplierName: r.supplierName,
    status: r.status,
    readAt: iso(r.readAt),
    readByAccount: r.readByAccount,
    readByName: r.readByName,
    readIp: r.readIp,
    confirmedAt: iso(r.confirmedAt),
    confirmedByAccount: r.confirmedByAccount,
    confirmedByName: r.confirmedByName,
    confirmedIp: r.confirmedIp,
    remindCount: r.remindCount,
  }));
  const confirmed = recipients.flatMap((r) =>
    r.confirmedFiles.map((f) => ({
      noticeId: r.noticeId,
      noticeNumber: r.notice.number,
      supplierCode: r.supplierCode,
      fileId: f.fileId,
      standardCode: f.standardCode,
      version: f.version,
      sha256: f.sha256,
      viewLogId: f.viewLogId,
      viewedAt: iso(f.viewedAt),
    })),
  );
  return { rows, confirmed, viewLogIds: confirmed.map((c) => c.viewLogId) };
}

async function countersignRecords(
  db: Db,
  where: { supplierCode?: string; fileIds?: { hasSome: number[] }; noticeId?: number },
) {
  const lists = await db.countersign.findMany({
    where,
    include: { rounds: { orderBy: { round: 'asc' } }, signatures: { orderBy: [{ round: 'asc' }, { step: 'asc' }] } },
    orderBy: { id: 'asc' },
  });
  return {
    ids: lists.map((c) => c.id),
    lists: lists.map((c) => ({
      id: c.id,
      number: c.number,
      title: c.title,
      supplierCode: c.supplierCode,
      noticeId: c.noticeId,
      status: c.status,
      fileIds: c.fileIds,
      createdByName: c.createdByName,
      createdAt: iso(c.createdAt),
      issuedAt: iso(c.issuedAt),
      completedAt: iso(c.completedAt),
      cancelledAt: iso(c.cancelledAt),
      cancelReason: c.cancelReason,
    })),
    rounds: lists.flatMap((c) =>
      c.rounds.map((r) => ({
        countersignId: c.id,
        number: c.number,
        round: r.round,
        contentSha256: r.contentSha256,
        issuedAt: iso(r.issuedAt),
        issuedByName: r.issuedByName,
        outcome: r.outcome,
        endedAt: iso(r.endedAt),
      })),
    ),
    signatures: lists.flatMap((c) =>
      c.signatures.map((s) => ({
        countersignId: c.id,
        number: c.number,
        round: s.round,
        step: s.step,
        userAccount: s.userAccount,
        userName: s.userName,
        supplierCode: s.supplierCode,
        department: s.department,
        decision: s.decision,
        comment: s.comment,
        contentSha256: s.contentSha256,
        ip: s.ip,
        createdAt: iso(s.createdAt),
      })),
    ),
  };
}

async function issueRecords(
  db: Db,
  where: { supplierCode?: string; materialCode?: { in: string[] }; standardCode?: string; id?: { in: number[] } },
) {
  const issues = await db.documentIssue.findMany({ where, orderBy: { id: 'asc' } });
  return {
    ids: issues.map((i) => i.id),
    rows: issues.map((i) => ({
      id: i.id,
      number: i.number,
      supplierCode: i.supplierCode,
      fileId: i.fileId,
      standardCode: i.standardCode,
      version: i.version,
      materialCode: i.materialCode,
      title: i.title,
      status: i.status,
      askedByAccount: i.askedByAccount,
      askedByName: i.askedByName,
      assigneeName: i.assigneeName,
      submittedAt: iso(i.submittedAt),
      answeredAt: iso(i.answeredAt),
      closedAt: iso(i.closedAt),
    })),
  };
}

const record = (name: string, label: string, rows: Record<string, unknown>[]): RecordFile => ({ name, label, rows });

/** The records both kinds of package end with: readings and confirmations, countersigns, questions. */
const trailRecords = (
  recipientsLabel: string,
  recipients: Awaited<ReturnType<typeof recipientRecords>>,
  countersigns: Awaited<ReturnType<typeof countersignRecords>>,
  issues: Awaited<ReturnType<typeof issueRecords>>,
): RecordFile[] => [
  record('notice_recipients', recipientsLabel, recipients.rows),
  record('notice_confirmed_files', '确认的文件版本（SHA-256）', recipients.confirmed),
  record('countersigns', '会签单', countersigns.lists),
  record('countersign_rounds', '会签轮次', countersigns.rounds),
  record('countersign_signatures', '会签签署', countersigns.signatures),
  record('questions', '图纸问题', issues.rows),
];

export interface EvidenceContent {
  subject: EvidenceSubject;
  chains: ChainFile[];
  records: RecordFile[];
}

/** The rows of a supplier and a material (or a drawing: a standard code with every version). */
export async function subjectEvidence(
  db: Db,
  q: z.output<typeof ZSubjectEvidenceRequestSchema>,
): Promise<EvidenceContent> {
  const supplier = await db.supplier.findUnique({
    where: { code: q.supplierCode },
    select: { code: true, name: true },
  });
  if (!supplier)
    throw badRequest(`供应商 ${q.supplierCode} 不存在`, [
      { field: 'supplierCode', message: `供应商 ${q.supplierCode} 不存在` },
    ]);
  const standardCode = q.standardCode ?? null;
  let materialCodes: string[];
  let title: string;
  if (standardCode) {
    const versions = await db.standardFile.findMany({ where: { standardCode }, select: { materialCode: true } });
    if (!versions.length) throw notFound(`标准编号 ${standardCode} 不存在`);
    materialCodes = [...new Set(versions.map((v) => v.materialCode))].sort();
    title = `图纸 ${standardCode}`;
  } else {
    const material = await db.material.findUnique({
      where: { code: q.materialCode! },
      select: { code: true, name: true },
    });
    if (!material) throw notFound(`物料 ${q.materialCode} 不存在`);
    materialCodes = [material.code];
    title = `物料 ${material.code} ${material.name}`;
  }
  const S = supplier.code;

  // the access log: every act of the supplier's users on the subject, and their agreement acceptances
  const accessLog = standardCode
    ? await chained(
        db,
        'access_log',
        `x.supplier_code = $1 AND (x.standard_code = $2 OR x.action = 'KEEPSECRET')`,
        S,
        standardCode,
      )
    : await chained(
        db,
        'access_log',
        `x.supplier_code = $1 AND (x.material_code = $2 OR x.action = 'KEEPSECRET')`,
        S,
        materialCodes[0],
      );
  const acceptances = await chained(db, 'keepsecret_acceptance', `x.supplier_code = $1`, S);
  const agreements = await db.keepsecretAgreement.findMany({ orderBy: { version: 'asc' } });

  // grants on the subject's materials and the applications behind them (and any application of the supplier for them)
  const grants = await db.empowerGrant.findMany({
    where: { supplierCode: S, materialCode: { in: materialCodes } },
    orderBy: { id: 'asc' },
  });
  const applications = await db.empowerApplication.findMany({
    where: {
      supplierCode: S,
      OR: [
        { id: { in: grants.flatMap((g) => (g.applicationId ? [g.applicationId] : [])) } },
        { materials: { some: { materialCode: { in: materialCodes } } } },
      ],
    },
    include: { materials: { orderBy: { materialCode: 'asc' } } },
    orderBy: { id: 'asc' },
  });
  const appIds = applications.map((a) => a.id);
  const empowerAudit = await chained(db, 'empower_audit', `x.application_id = ANY($1::int[])`, appIds);

  // file versions the supplier could see: a version in effect at some moment of one of its grants
  const fileIds = (
    await db.$queryRawUnsafe<{ id: number }[]>(
      `SELECT f.id FROM standard_file f WHERE f.material_code = ANY($1::text[]) AND ($2::text IS NULL OR f.standard_code = $2)
         AND EXISTS (SELECT 1 FROM empower_grant g WHERE g.supplier_code = $3 AND g.material_code = f.material_code
           AND f.effective_date < LEAST(g.valid_until, coalesce(g.revoked_at, g.valid_until)) AND (f.obsoleted_at IS NULL OR f.obsoleted_at > g.valid_from))`,
      materialCodes,
      standardCode,
      S,
    )
  ).map((r) => r.id);
  const subjectFileIds = (
    await db.standardFile.findMany({
      where: { materialCode: { in: materialCodes }, ...(standardCode ? { standardCode } : {}) },
      select: { id: true },
    })
  ).map((f) => f.id);

  // notices sent to the supplier that change the subject
  const noticeIds = (
    await db.noticeChange.findMany({
      where: {
        materialCode: { in: materialCodes },
        ...(standardCode ? { standardCode } : {}),
        notice: { recipients: { some: { supplierCode: S } } },
      },
      select: { noticeId: true },
    })
  ).map((c) => c.noticeId);
  const recipients = await recipientRecords(db, { noticeId: { in: [...new Set(noticeIds)] }, supplierCode: S });
  const noticeEvents = await chained(
    db,
    'notice_event',
    `x.notice_id = ANY($1::int[]) AND (x.supplier_code = $2 OR x.supplier_code IS NULL)`,
    [...new Set(noticeIds)],
    S,
  );

  const countersigns = await countersignRecords(db, { supplierCode: S, fileIds: { hasSome: subjectFileIds } });
  const countersignEvents = await chained(
    db,
    'countersign_event',
    `x.countersign_id = ANY($1::int[])`,
    countersigns.ids,
  );
  const issues = await issueRecords(db, {
    supplierCode: S,
    materialCode: { in: materialCodes },
    ...(standardCode ? { standardCode } : {}),
  });
  const issueMessages = await chained(db, 'document_issue_message', `x.issue_id = ANY($1::int[])`, issues.ids);

  return {
    subject: {
      kind: 'SUPPLIER_SUBJECT',
      title,
      supplierCode: S,
      supplierName: supplier.name,
      materialCodes,
      standardCode,
      noticeId: null,
      noticeNumber: null,
    },
    chains: [accessLog, acceptances, empowerAudit, noticeEvents, countersignEvents, issueMessages],
    records: [
      record(
        'agreements',
        '保密协议版本',
        agreements.map((a) => ({
          id: a.id,
          version: a.version,
          title: a.title,
          effectiveAt: iso(a.effectiveAt),
          contentSha256: sha256(a.content),
        })),
      ),
      record(
        'grants',
        '授权（申请、审批人、授权期、撤销）',
        grants.map((g) => ({
          id: g.id,
          supplierCode: g.supplierCode,
          materialCode: g.materialCode,
          validFrom: iso(g.validFrom),
          validUntil: iso(g.validUntil),
          imported: g.imported,
          applicationId: g.applicationId,
          approverAccount: g.approverAccount,
          approverName: g.approverName,
          approvedAt: iso(g.approvedAt),
          revokedAt: iso(g.revokedAt),
          revokedByAccount: g.revokedByAccount,
          revokedByName: g.revokedByName,
          revokeReason: g.revokeReason,
          createdBy: g.createdBy,
          createdAt: iso(g.createdAt),
        })),
      ),
      record(
        'applications',
        '授权申请',
        applications.map((a) => ({
          id: a.id,
          supplierCode: a.supplierCode,
          status: a.status,
          materials: a.materials.map((m) => ({ materialCode: m.materialCode, approved: m.approved })),
          validFrom: day(a.validFrom),
          validUntil: day(a.validUntil),
          reason: a.reason,
          applicantAccount: a.applicantAccount,
          applicantName: a.applicantName,
          submittedAt: iso(a.submittedAt),
          approvedFrom: day(a.approvedFrom),
          approvedUntil: day(a.approvedUntil),
          deciderAccount: a.deciderAccount,
          deciderName: a.deciderName,
          decidedAt: iso(a.decidedAt),
          decisionComment: a.decisionComment,
        })),
      ),
      record('files', '供应商可查看的文件版本（SHA-256）', await fileRecords(db, fileIds)),
      ...trailRecords('变更通知的阅读与确认', recipients, countersigns, issues),
    ],
  };
}

/** The rows of a change notice: its changes, every recipient's reading and confirmation, its events, countersigns and questions. */
export async function noticeEvidence(
  db: Db,
  q: z.output<typeof ZNoticeEvidenceRequestSchema>,
): Promise<EvidenceContent> {
  const id = q.id;
  const notice = await db.changeNotice.findUnique({
    where: { id },
    include: { changes: { orderBy: { sort: 'asc' } } },
  });
  if (!notice) throw notFound('变更通知不存在或无权查看');
  const changedIds = notice.changes.flatMap((c) => (c.oldFileId ? [c.oldFileId, c.newFileId] : [c.newFileId]));
  const recipients = await recipientRecords(db, { noticeId: id });
  const events = await chained(db, 'notice_event', `x.notice_id = $1`, id);
  // the views each confirmation rests on (the confirmed versions were opened first)
  const views = await chained(db, 'access_log', `x.id = ANY($1::int[])`, recipients.viewLogIds);
  const countersigns = await countersignRecords(db, { noticeId: id });
  const countersignEvents = await chained(
    db,
    'countersign_event',
    `x.countersign_id = ANY($1::int[])`,
    countersigns.ids,
  );
  const issueIds = (await db.documentIssueMessage.findMany({ where: { noticeId: id }, select: { issueId: true } })).map(
    (m) => m.issueId,
  );
  const issues = await issueRecords(db, { id: { in: [...new Set(issueIds)] } });
  const issueMessages = await chained(db, 'document_issue_message', `x.issue_id = ANY($1::int[])`, issues.ids);
  return {
    subject: {
      kind: 'NOTICE',
      title: `变更通知 ${notice.number} ${notice.title}`,
      supplierCode: null,
      supplierName: null,
      materialCodes: [...new Set(notice.changes.map((c) => c.materialCode))].sort(),
      standardCode: null,
      noticeId: id,
      noticeNumber: notice.number,
    },
    chains: [events, views, countersignEvents, issueMessages],
    records: [
      record('notice', '变更通知', [
        {
          id: notice.id,
          number: notice.number,
          title: notice.title,
          reason: notice.reason,
          status: notice.status,
          productLineCode: notice.productLineCode,
          dueDate: day(notice.dueDate),
          createdByName: notice.createdByName,
          createdAt: iso(notice.createdAt),
          publishedAt: iso(notice.publishedAt),
          publishedByName: notice.publishedByName,
          closedAt: iso(notice.closedAt),
          withdrawnAt: iso(notice.withdrawnAt),
          withdrawReason: notice.withdrawReason,
        },
      ]),
      record(
        'notice_changes',
        '变更内容',
        notice.changes.map((c) => ({
          standardCode: c.standardCode,
          materialCode: c.materialCode,
          oldFileId: c.oldFileId,
          newFileId: c.newFileId,
        })),
      ),
      record('files', '涉及的文件版本（SHA-256）', await fileRecords(db, changedIds)),
      ...trailRecords('接收方的阅读与确认', recipients, countersigns, issues),
    ],
  };
}

export interface EvidencePackage {
  bytes: Uint8Array;
  fileName: string;
  manifest: EvidenceManifest;
}

const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;

/** Writes the ZIP: the rows, the report, and the manifest that hashes both. */
export async function writePackage(
  db: Db,
  content: EvidenceContent,
  by: { account: string; name: string },
  now = new Date(),
): Promise<EvidencePackage> {
  const heads = await currentHeads(db);
  const zip = new JSZip();
  const entries: ManifestEntry[] = [];
  const put = (name: string, data: string | Uint8Array, rows: number | null) => {
    entries.push({ name, sha256: sha256(data), rows });
    zip.file(name, data, { date: now });
  };
  for (const c of content.chains) put(`chain/${c.table}.json`, json(c), c.rows.length);
  for (const r of content.records) put(`records/${r.name}.json`, json(r), r.rows.length);
  const base: Omit<EvidenceManifest, 'entries' | 'manifestSha256'> = {
    kind: EVIDENCE_PACKAGE_KIND,
    version: 1,
    subject: content.subject,
    generatedAt: now.toISOString(),
    generatedBy: by,
    heads,
    headsDigest: headsDigestOf(heads),
  };
  put('report.pdf', await evidencePdf(content, base), null);
  const body = { ...base, entries };
  const manifest: EvidenceManifest = { ...body, manifestSha256: manifestHashOf(body) };
  zip.file('manifest.json', json(manifest), { date: now });
  const bytes = await zip.generateAsync({
    type: 'uint8array',
    compression: 'DEFLATE',
    compressionOptions: { level: 6 },
  });
  const who =
    content.subject.kind === 'NOTICE'
      ? content.subject.noticeNumber
      : `${content.subject.supplierCode}_${content.subject.standardCode ?? content.subject.materialCodes[0]}`;
  return { bytes, fileName: `证据包_${who}_${cstStamp(now)}.zip`, manifest };
}

/**
 * The package, its export logged: a DOWNLOAD row of the access log (chained; SENT, its delivery
 * recorded when the response ends), naming the package's file and the start of its manifest
 * hash, committed before the bytes leave.
 */
export async function exportPackage(
  db: Db,
  content: EvidenceContent,
  user: SessionUser,
  client: ClientInfo,
  now = new Date(),
): Promise<{ pkg: EvidencePackage; logId: number }> {
  const pkg = await writePackage(db, content, { account: user.account, name: user.name }, now);
  const code =
    content.subject.kind === 'NOTICE'
      ? `证据包 ${content.subject.noticeNumber}`
      : `证据包 ${content.subject.supplierCode}`;
  const row = await db.$transaction((tx) =>
    writeAccessLog(tx, {
      action: 'DOWNLOAD',
      outcome: 'SENT',
      user,
      ...client,
      document: { code, fileName: pkg.fileName, version: pkg.manifest.manifestSha256.slice(0, 16) },
    }),
  );
  return { pkg, logId: row.id };
}
