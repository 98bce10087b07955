/**
 * The reads of the notices: the notice list, one notice's recipients matrix, the change
 * records, a supplier's notices, as SQL sent through db/rows.ts. The two lists the benchmark
 * measures (apps/api/bench/notice-lists.ts) are built like the archive list: the page's ids are
 * found on change_notice / notice_recipient alone, then only those rows are joined and counted,
 * and the capped total comes in the same statement (lib/list.ts pageAndCount).
 *
 * "Overdue" is derived: a recipient is overdue when it has not confirmed, its notice went out
 * (published, or closed — then judged at the time it was closed) and the due day (UTC+8) is over.
 * Per notice, how many recipients have not confirmed is kept on the notice
 * (change_notice.open_recipient_count, changed in the transaction of publish / confirm / withdraw),
 * so the notice list's overdue filter and counts read one column instead of the recipients.
 */
import type {
  ChangeRecordRow,
  SupplierChangeRow,
  NoticeChange,
  NoticeFile,
  NoticeRow,
  RecipientFilter,
  RecipientRow,
  SupplierNoticeRow,
  ZChangeRecordRequestSchema,
  ZNoticePageRequestSchema,
} from '@esm/contracts';
import { FILE_TYPES, type FileType } from '@esm/contracts';
import type { z } from 'zod';
import { Prisma } from '../../generated/prisma/client.ts';
import { deliveredSql } from '../../lib/access-log-delivery.ts';
import type { Db } from '../../db/database.ts';
import { readRows } from '../../db/rows.ts';
import {
  bigramIndexed,
  checkWindow,
  containsText,
  dayRangeSql,
  equalsSql,
  keywordSql,
  orderBySql,
  pageAndCount,
  whereSql,
  type CappedTotal,
  type Condition,
  type PageStatement,
} from '../../lib/list.ts';

type NoticeQuery = z.output<typeof ZNoticePageRequestSchema>;
type ChangeQuery = z.output<typeof ZChangeRecordRequestSchema>;
type Page<T> = { rows: T[] } & CappedTotal;

// ---- overdue ---------------------------------------------------------------------------------------

/** The end of the notice's due day (UTC+8) as a UTC timestamp, the way every timestamp column holds it. */
const dueEnd = (n: string) => Prisma.raw(`((${n}.due_date + 1) - interval '8 hours')`);

/** The notice `n` is past its due day: now, or at its closing for a closed one. */
export const pastDueSql = (n: string, now: Date) =>
  Prisma.sql`(${Prisma.raw(n)}.status IN ('PUBLISHED', 'CLOSED') AND ${dueEnd(n)} <= COALESCE(${Prisma.raw(n)}.closed_at, ${now}))`;

/**
 * Sets change_notice.open_recipient_count from the recipients, for notices written other than
 * through the moves (the demo seed, the benchmark's generated data; the migration's backfill is
 * the same statement): a notice that went out owes what its unconfirmed recipients owe, a draft or
 * a withdrawn notice nothing. Plain SQL text, so `pg` can send it too.
 */
export const RECOUNT_OPEN_RECIPIENTS_SQL = `UPDATE change_notice n SET open_recipient_count = CASE WHEN n.status IN ('PUBLISHED', 'CLOSED')
  THEN (SELECT count(*)::int FROM notice_recipient r WHERE r.notice_id = n.id AND r.status <> 'CONFIRMED') ELSE 0 END`;

/** Recipient `r` of notice `n` is overdue. */
export const overdueSql = (r: string, n: string, now: Date) =>
  Prisma.sql`(${Prisma.raw(r)}.status <> 'CONFIRMED' AND ${pastDueSql(n, now)})`;

/** A recipient filter: a stored status, or the derived OVERDUE. */
export function recipientStateSql(state: RecipientFilter | undefined, r: string, n: string, now: Date): Condition {
  if (!state) return null;
  return state === 'OVERDUE' ? overdueSql(r, n, now) : Prisma.sql`${Prisma.raw(r)}.status = ${state}`;
}

// ---- the notice list ---------------------------------------------------------------------------------

const NOTICE_SORT = {
  number: 'n.number',
  publishedAt: 'n.published_at',
  dueDate: 'n.due_date',
  createdAt: 'n.id',
} as const;

export interface NoticeRecord {
  id: number;
  number: string;
  title: string;
  reason: string;
  product_line_code: string;
  product_line_name: string;
  status: NoticeRow['status'];
  due_date: string;
  change_count: number;
  change_summary: string | null;
  published_at: Date | null;
  published_by_name: string | null;
  closed_at: Date | null;
  withdrawn_at: Date | null;
  withdraw_reason: string | null;
  created_by_name: string;
  created_at: Date;
  recipient_count: number;
  read_count: number;
  confirmed_count: number;
  overdue_count: number;
}

/**
 * The changes of notice `n` a supplier's recipient row `r` was sent for: those on the materials
 * of its `basis` (the materials that made it a recipient at publish). A notice on several
 * suppliers' materials goes to each of them; each sees, counts and confirms only its own — never
 * another supplier's drawings, which it could not open either.
 */
export const recipientChangeSql = (c: string, r: string) =>
  Prisma.sql`${Prisma.raw(c)}.material_code IN (SELECT b->>'materialCode' FROM jsonb_array_elements(${Prisma.raw(r)}.basis) b)`;

/**
 * The columns of notice `n` every notice row has (its product line `pl` joined), its changes summed
 * up — with `forRecipient`, only the changes that recipient row was sent for.
 */
const noticeColumns = (forRecipient?: string) => {
  const mine = forRecipient ? Prisma.sql`AND ${recipientChangeSql('c', forRecipient)}` : Prisma.empty;
  return Prisma.sql`n.id, n.number, n.title, n.reason, n.product_line_code, pl.name AS product_line_name, n.status,
  to_char(n.due_date, 'YYYY-MM-DD') AS due_date, n.published_at, n.published_by_name, n.closed_at, n.withdrawn_at, n.withdraw_reason,
  (SELECT count(*)::int FROM notice_change c WHERE c.notice_id = n.id ${mine}) AS change_count,
  (SELECT string_agg(c.standard_code || '（' || COALESCE(o.version, '新增') || '→' || f.version || '）', '、' ORDER BY c.sort, c.id)
     FROM (SELECT * FROM notice_change c WHERE c.notice_id = n.id ${mine} ORDER BY c.sort, c.id LIMIT 2) c
     JOIN standard_file f ON f.id = c.new_file_id LEFT JOIN standard_file o ON o.id = c.old_file_id) AS change_summary`;
};
const NOTICE_COLUMNS = noticeColumns();

type NoticeCoreRecord = Pick<
  NoticeRecord,
  | 'id'
  | 'number'
  | 'title'
  | 'reason'
  | 'product_line_code'
  | 'product_line_name'
  | 'status'
  | 'due_date'
  | 'change_count'
  | 'change_summary'
  | 'published_at'
  | 'published_by_name'
  | 'closed_at'
  | 'withdrawn_at'
  | 'withdraw_reason'
>;

/** The fields noticeColumns gives, as the row's. */
const toNoticeCore = (r: NoticeCoreRecord) => ({
  id: r.id,
  number: r.number,
  title: r.title,
  reason: r.reason,
  productLineCode: r.product_line_code,
  productLineName: r.product_line_name,
  status: r.status,
  dueDate: r.due_date,
  changeSummary: summary(r.change_summary, r.change_count),
  changeCount: r.change_count,
  publishedAt: r.published_at?.toISOString() ?? null,
  publishedByName: r.published_by_name,
  closedAt: r.closed_at?.toISOString() ?? null,
  withdrawnAt: r.withdrawn_at?.toISOString() ?? null,
  withdrawReason: r.withdraw_reason,
});

export const noticeSelect = (now: Date) => Prisma.sql`SELECT ${NOTICE_COLUMNS}, n.created_by_name, n.created_at,
  rc.recipient_count, rc.read_count, rc.confirmed_count, rc.overdue_count
FROM change_notice n
JOIN product_line pl ON pl.code = n.product_line_code
CROSS JOIN LATERAL (
  SELECT count(*)::int AS recipient_count,
    (count(*) FILTER (WHERE r.status <> 'UNREAD'))::int AS read_count,
    (count(*) FILTER (WHERE r.status = 'CONFIRMED'))::int AS confirmed_count,
    -- the recipients still owing a confirmation, kept on the notice, are the overdue ones once it is past due
    CASE WHEN ${pastDueSql('n', now)} THEN n.open_recipient_count ELSE 0 END AS overdue_count
  FROM notice_recipient r WHERE r.notice_id = n.id
) rc`;

export const summary = (text: string | null, count: number) => (text ?? '') + (count > 2 ? ` 等 ${count} 项` : '');

export function toNoticeRow(r: NoticeRecord): NoticeRow {
  return {
    ...toNoticeCore(r),
    createdByName: r.created_by_name,
    createdAt: r.created_at.toISOString(),
    recipientCount: r.recipient_count,
    readCount: r.read_count,
    confirmedCount: r.confirmed_count,
    overdueCount: r.overdue_count,
  };
}

export function noticeWhere(
  q: Omit<NoticeQuery, 'page' | 'results' | 'sortField' | 'sortOrder'>,
  now: Date,
): Prisma.Sql {
  return whereSql([
    q.number && containsText('n.number', q.number),
    q.title && containsText(bigramIndexed('n.title'), q.title),
    q.materialCode &&
      Prisma.sql`EXISTS (SELECT 1 FROM notice_change c WHERE c.notice_id = n.id AND c.material_code = ${q.materialCode})`,
    q.recipientCode &&
      Prisma.sql`EXISTS (SELECT 1 FROM notice_recipient r WHERE r.notice_id = n.id AND r.supplier_code = ${q.recipientCode})`,
    equalsSql('n.product_line_code', q.productLineCode),
    equalsSql('n.status', q.status),
    ...dayRangeSql('n.published_at', q.dateFrom, q.dateTo),
    // the stored counter (change_notice.open_recipient_count), not a probe of the recipients per notice
    q.overdueOnly && Prisma.sql`${pastDueSql('n', now)} AND n.open_recipient_count > 0`,
  ]);
}

export type { PageStatement };

/** The notice list's page: its ids found on change_notice alone, then only those rows read and counted up. */
export function noticePageSql(q: NoticeQuery, now: Date): PageStatement {
  const where = noticeWhere(q, now);
  const order = orderBySql(NOTICE_SORT, q, 'n.id', 'n.id DESC');
  const pageIds = Prisma.sql`SELECT n.id FROM change_notice n ${where} ${order} LIMIT ${q.results} OFFSET ${(q.page - 1) * q.results}`;
  return {
    page: Prisma.sql`WITH page AS (${pageIds}) ${noticeSelect(now)} WHERE n.id IN (SELECT id FROM page) ${order}`,
    fromWhere: Prisma.sql`FROM change_notice n ${where}`,
  };
}

/** haier/tableChangeLog/findTableChangeLogListForHaier: newest first by default. */
export async function pageNotices(db: Db, q: NoticeQuery, now = new Date()): Promise<Page<NoticeRow>> {
  checkWindow(q);
  const { page, fromWhere } = noticePageSql(q, now);
  const { rows, ...total } = await pageAndCount<NoticeRecord>(db, page, fromWhere);
  return { rows: rows.map(toNoticeRow), ...total };
}

/** Whether the notice exists (a matrix of an unknown notice is a 404, not an empty page). */
export async function noticeExists(db: Db, id: number): Promise<boolean> {
  return (await readRows<{ id: number }>(db, Prisma.sql`SELECT id FROM change_notice WHERE id = ${id}`)).length > 0;
}

/** One notice as a list row, or null. */
export async function findNoticeRow(
  db: Db,
  id: number,
  now = new Date(),
): Promise<
  (NoticeRow & { description: string | null; closedByName: string | null; withdrawnByName: string | null }) | null
> {
  const [r] = await readRows<
    NoticeRecord & { description: string | null; closed_by_name: string | null; withdrawn_by_name: string | null }
  >(
    db,
    Prisma.sql`SELECT q.*, x.description, x.closed_by_name, x.withdrawn_by_name FROM (${noticeSelect(now)} WHERE n.id = ${id}) q JOIN change_notice x ON x.id = q.id`,
  );
  return r
    ? {
        ...toNoticeRow(r),
        description: r.description,
        closedByName: r.closed_by_name,
        withdrawnByName: r.withdrawn_by_name,
      }
    : null;
}

// ---- changes -------------------------------------------------------------------------------------------

interface ChangeRecord {
  id: number;
  standard_code: string;
  name: string;
  material_code: string;
  material_name: string;
  viewed_at?: Date | null;
  [k: string]: unknown;
}

const fileCols = (alias: string, prefix: string) =>
  Prisma.raw(
    ['id', 'version', 'version_no', 'status', 'file_name', 'file_type']
      .map((c) => `${alias}.${c} AS ${prefix}_${c}`)
      .join(', ') + `, to_char(${alias}.effective_date, 'YYYY-MM-DD') AS ${prefix}_effective_date`,
  );

function fileOf(r: Record<string, unknown>, prefix: string): NoticeFile | null {
  if (r[`${prefix}_id`] == null) return null;
  const type = r[`${prefix}_file_type`] as FileType;
  return {
    id: r[`${prefix}_id`] as number,
    version: r[`${prefix}_version`] as string,
    versionNo: r[`${prefix}_version_no`] as number,
    status: r[`${prefix}_status`] as NoticeFile['status'],
    fileName: r[`${prefix}_file_name`] as string,
    fileType: type,
    viewable: FILE_TYPES[type]?.viewable ?? false,
    effectiveDate: r[`${prefix}_effective_date`] as string,
  };
}

/**
 * A notice's changes in their order; with `viewedBy` (a supplier), only those its recipient row
 * was sent for (recipientChangeSql), each with when a user of that supplier first viewed the new
 * version (a VIEW row of access_log delivered in full, the proof a confirmation needs).
 */
export async function noticeChanges(
  db: Db | Prisma.TransactionClient,
  noticeId: number,
  viewedBy?: string,
): Promise<(NoticeChange & { viewedAt?: string | null })[]> {
  const viewed = viewedBy
    ? Prisma.sql`, (SELECT min(l.created_at) FROM access_log l WHERE l.file_id = c.new_file_id AND l.action = 'VIEW' AND ${deliveredSql('l')} AND l.supplier_code = ${viewedBy}) AS viewed_at`
    : Prisma.empty;
  const mine = viewedBy
    ? Prisma.sql`AND EXISTS (SELECT 1 FROM notice_recipient r WHERE r.notice_id = c.notice_id AND r.supplier_code = ${viewedBy} AND ${recipientChangeSql('c', 'r')})`
    : Prisma.empty;
  const q = Prisma.sql`SELECT c.id, c.standard_code, f.name, c.material_code, m.name AS material_name, ${fileCols('f', 'nf')}, ${fileCols('o', 'of')} ${viewed}
    FROM notice_change c
    JOIN standard_file f ON f.id = c.new_file_id
    LEFT JOIN standard_file o ON o.id = c.old_file_id
    JOIN material m ON m.code = c.material_code
    WHERE c.notice_id = ${noticeId} ${mine} ORDER BY c.sort, c.id`;
  // a transaction client has no pool of its own: readRows sends it through the transaction
  const rows = await readRows<ChangeRecord>(db as Db, q);
  return rows.map((r) => ({
    id: r.id,
    standardCode: r.standard_code,
    name: r.name,
    materialCode: r.material_code,
    materialName: r.material_name,
    oldFile: fileOf(r, 'of'),
    newFile: fileOf(r, 'nf')!,
    ...(viewedBy ? { viewedAt: r.viewed_at?.toISOString() ?? null } : {}),
  }));
}

// ---- the recipients matrix ---------------------------------------------------------------------------

const RECIPIENT_SORT = { supplierCode: 'r.supplier_code', readAt: 'r.read_at', confirmedAt: 'r.confirmed_at' } as const;
/** Default order: who still owes a confirmation first (unread, then read), then by supplier code. */
const RECIPIENT_DEFAULT_ORDER =
  "CASE r.status WHEN 'UNREAD' THEN 0 WHEN 'READ' THEN 1 ELSE 2 END, r.supplier_code, r.id";

export interface RecipientRecord {
  id: number;
  supplier_code: string;
  supplier_name: string;
  basis: RecipientRow['basis'];
  status: RecipientRow['status'];
  overdue: boolean;
  read_at: Date | null;
  read_by_account: string | null;
  read_by_name: string | null;
  read_ip: string | null;
  confirmed_at: Date | null;
  confirmed_by_account: string | null;
  confirmed_by_name: string | null;
  confirmed_ip: string | null;
  remind_count: number;
  last_reminded_at: Date | null;
  confirmed_files: RecipientRow['confirmedFiles'];
}

const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

export const recipientSelect = (
  now: Date,
) => Prisma.sql`SELECT r.id, r.supplier_code, r.supplier_name, r.basis, r.status, ${overdueSql('r', 'n', now)} AS overdue,
  r.read_at, r.read_by_account, r.read_by_name, r.read_ip, r.confirmed_at, r.confirmed_by_account, r.confirmed_by_name, r.confirmed_ip,
  r.remind_count, r.last_reminded_at,
  COALESCE((SELECT json_agg(json_build_object('fileId', cf.file_id, 'standardCode', cf.standard_code, 'version', cf.version, 'sha256', cf.sha256,
      'viewedAt', to_char(cf.viewed_at, ${Prisma.raw(ISO)})) ORDER BY cf.standard_code, cf.file_id)
    FROM notice_confirmed_file cf WHERE cf.recipient_id = r.id), '[]'::json) AS confirmed_files
FROM notice_recipient r JOIN change_notice n ON n.id = r.notice_id`;

export function toRecipientRow(r: RecipientRecord): RecipientRow {
  return {
    id: r.id,
    supplierCode: r.supplier_code,
    supplierName: r.supplier_name,
    basis: r.basis,
    status: r.status,
    overdue: r.overdue,
    readAt: r.read_at?.toISOString() ?? null,
    readByAccount: r.read_by_account,
    readByName: r.read_by_name,
    readIp: r.read_ip,
    confirmedAt: r.confirmed_at?.toISOString() ?? null,
    confirmedByAccount: r.confirmed_by_account,
    confirmedByName: r.confirmed_by_name,
    confirmedIp: r.confirmed_ip,
    remindCount: r.remind_count,
    lastRemindedAt: r.last_reminded_at?.toISOString() ?? null,
    confirmedFiles: r.confirmed_files,
  };
}

export interface RecipientFilterQuery {
  state?: RecipientFilter;
  keyword?: string;
}

export const recipientWhere = (noticeId: number, q: RecipientFilterQuery, now: Date) =>
  whereSql([
    Prisma.sql`r.notice_id = ${noticeId}`,
    recipientStateSql(q.state, 'r', 'n', now),
    keywordSql(['r.supplier_code', 'r.supplier_name'], q.keyword),
  ]);

export const recipientOrder = (q: { sortField?: keyof typeof RECIPIENT_SORT; sortOrder?: 'ascend' | 'descend' }) =>
  orderBySql(RECIPIENT_SORT, q, 'r.id', RECIPIENT_DEFAULT_ORDER);

export type RecipientPageQuery = RecipientFilterQuery & {
  page: number;
  results: number;
  sortField?: keyof typeof RECIPIENT_SORT;
  sortOrder?: 'ascend' | 'descend';
};

/** The matrix's page: a deferred join, as the notice list. */
export function recipientPageSql(noticeId: number, q: RecipientPageQuery, now: Date): PageStatement {
  const where = recipientWhere(noticeId, q, now);
  const order = recipientOrder(q);
  const from = Prisma.sql`FROM notice_recipient r JOIN change_notice n ON n.id = r.notice_id ${where}`;
  return {
    page: Prisma.sql`WITH page AS (SELECT r.id ${from} ${order} LIMIT ${q.results} OFFSET ${(q.page - 1) * q.results}) ${recipientSelect(now)} WHERE r.id IN (SELECT id FROM page) ${order}`,
    fromWhere: from,
  };
}

/** haier/tableChangeLog/getSuppliersById: one page of the matrix. */
export async function pageRecipients(
  db: Db,
  noticeId: number,
  q: RecipientPageQuery,
  now = new Date(),
): Promise<Page<RecipientRow>> {
  checkWindow(q);
  const { page, fromWhere } = recipientPageSql(noticeId, q, now);
  const { rows, ...total } = await pageAndCount<RecipientRecord>(db, page, fromWhere);
  return { rows: rows.map(toRecipientRow), ...total };
}

// ---- change records ----------------------------------------------------------------------------------

const CHANGE_SORT = { publishedAt: 'n.published_at', standardCode: 'c.standard_code' } as const;

interface ChangeRecordRecord {
  change_id: number;
  notice_id: number;
  notice_number: string;
  notice_title: string;
  notice_status: NoticeRow['status'];
  standard_code: string;
  name: string;
  material_code: string;
  material_name: string;
  old_version: string | null;
  new_version: string;
  new_file_id: number;
  new_file_status: NoticeFile['status'];
  published_at: Date | null;
  due_date: string;
  recipient_status?: RecipientRow['status'];
  overdue?: boolean;
}

/**
 * Change records of notices that went out (never drafts), newest first; with `supplierCode`, only
 * those that supplier was sent (on the materials it received the notice for), each with its state
 * on the notice.
 */
export function pageChangeRecords(db: Db, q: ChangeQuery): Promise<Page<ChangeRecordRow>>;
export function pageChangeRecords(
  db: Db,
  q: ChangeQuery,
  supplierCode: string,
  now?: Date,
): Promise<Page<SupplierChangeRow>>;
export async function pageChangeRecords(
  db: Db,
  q: ChangeQuery,
  supplierCode?: string,
  now = new Date(),
): Promise<Page<ChangeRecordRow | SupplierChangeRow>> {
  checkWindow(q);
  // a supplier's change records: of the notices it received, the changes it was sent (recipientChangeSql)
  const recipient = supplierCode
    ? Prisma.sql`JOIN notice_recipient r ON r.notice_id = n.id AND r.supplier_code = ${supplierCode} AND ${recipientChangeSql('c', 'r')}`
    : Prisma.empty;
  const where = whereSql([
    Prisma.sql`n.status <> 'DRAFT'`,
    equalsSql('c.standard_code', q.standardCode),
    equalsSql('c.material_code', q.materialCode),
    equalsSql('n.number', q.noticeNumber),
    equalsSql('n.product_line_code', q.productLineCode),
    ...dayRangeSql('n.published_at', q.dateFrom, q.dateTo),
  ]);
  const from = Prisma.sql`FROM notice_change c JOIN change_notice n ON n.id = c.notice_id ${recipient} ${where}`;
  const order = orderBySql(CHANGE_SORT, q, 'c.id', 'n.published_at DESC, c.id DESC');
  const extra = supplierCode
    ? Prisma.sql`, r.status AS recipient_status, ${overdueSql('r', 'n', now)} AS overdue`
    : Prisma.empty;
  const page = await pageAndCount<ChangeRecordRecord>(
    db,
    Prisma.sql`SELECT c.id AS change_id, n.id AS notice_id, n.number AS notice_number, n.title AS notice_title, n.status AS notice_status,
        c.standard_code, f.name, c.material_code, m.name AS material_name, o.version AS old_version, f.version AS new_version,
        f.id AS new_file_id, f.status AS new_file_status, n.published_at, to_char(n.due_date, 'YYYY-MM-DD') AS due_date ${extra}
      FROM notice_change c JOIN change_notice n ON n.id = c.notice_id ${recipient}
      JOIN standard_file f ON f.id = c.new_file_id LEFT JOIN standard_file o ON o.id = c.old_file_id
      JOIN material m ON m.code = c.material_code
      ${where} ${order} LIMIT ${q.results} OFFSET ${(q.page - 1) * q.results}`,
    from,
  );
  return {
    ...page,
    rows: page.rows.map((r) => ({
      changeId: r.change_id,
      noticeId: r.notice_id,
      noticeNumber: r.notice_number,
      noticeTitle: r.notice_title,
      noticeStatus: r.notice_status,
      standardCode: r.standard_code,
      name: r.name,
      materialCode: r.material_code,
      materialName: r.material_name,
      oldVersion: r.old_version,
      newVersion: r.new_version,
      newFileId: r.new_file_id,
      newFileStatus: r.new_file_status,
      publishedAt: r.published_at?.toISOString() ?? null,
      dueDate: r.due_date,
      ...(supplierCode ? { recipientStatus: r.recipient_status!, overdue: r.overdue! } : {}),
    })),
  };
}

// ---- one supplier's notices ----------------------------------------------------------------------------

interface SupplierNoticeRecord extends Omit<
  NoticeRecord,
  'created_by_name' | 'created_at' | 'recipient_count' | 'read_count' | 'confirmed_count' | 'overdue_count'
> {
  r_status: RecipientRow['status'];
  overdue: boolean;
  read_at: Date | null;
  read_by_account: string | null;
  read_by_name: string | null;
  confirmed_at: Date | null;
  confirmed_by_account: string | null;
  confirmed_by_name: string | null;
  remind_count: number;
  last_reminded_at: Date | null;
  description?: string | null;
}

const SUPPLIER_NOTICE_SORT = { publishedAt: 'n.published_at', dueDate: 'n.due_date' } as const;
/**
 * The inbox: the notices still waiting to be read (published, unread) first, then the newest; a
 * withdrawn notice last — it asks nothing more of the supplier and no longer holds.
 */
const INBOX_ORDER =
  "CASE WHEN n.status = 'PUBLISHED' AND r.status = 'UNREAD' THEN 0 WHEN n.status = 'WITHDRAWN' THEN 2 ELSE 1 END, n.published_at DESC, n.id DESC";

/**
 * A supplier's state filter. 未读 is unread work, as the bell counts it: a published notice — one
 * withdrawn or closed before anybody opened it stays unread in its row, but asks nothing.
 */
function supplierStateSql(state: RecipientFilter | undefined, now: Date): Condition {
  if (state === 'UNREAD') return Prisma.sql`r.status = 'UNREAD' AND n.status = 'PUBLISHED'`;
  return recipientStateSql(state, 'r', 'n', now);
}

export const supplierNoticeSelect = (now: Date) => Prisma.sql`SELECT ${noticeColumns('r')}, n.description,
  r.status AS r_status, ${overdueSql('r', 'n', now)} AS overdue, r.read_at, r.read_by_account, r.read_by_name,
  r.confirmed_at, r.confirmed_by_account, r.confirmed_by_name, r.remind_count, r.last_reminded_at
FROM notice_recipient r JOIN change_notice n ON n.id = r.notice_id JOIN product_line pl ON pl.code = n.product_line_code`;

export function toSupplierNoticeRow(r: SupplierNoticeRecord): SupplierNoticeRow {
  return {
    ...toNoticeCore(r),
    recipientStatus: r.r_status,
    overdue: r.overdue,
    readAt: r.read_at?.toISOString() ?? null,
    readByAccount: r.read_by_account,
    readByName: r.read_by_name,
    confirmedAt: r.confirmed_at?.toISOString() ?? null,
    confirmedByAccount: r.confirmed_by_account,
    confirmedByName: r.confirmed_by_name,
    remindCount: r.remind_count,
    lastRemindedAt: r.last_reminded_at?.toISOString() ?? null,
  };
}

export interface SupplierNoticeQuery {
  page: number;
  results: number;
  sortField?: keyof typeof SUPPLIER_NOTICE_SORT;
  sortOrder?: 'ascend' | 'descend';
  state?: RecipientFilter;
  keyword?: string;
  /** Only notices in this status (the bell: PUBLISHED). */
  noticeStatus?: NoticeRow['status'];
}

/** A supplier's notices, one page: its recipient rows (index supplier_code, status, notice_id) joined to their notices. */
export function supplierNoticePageSql(supplierCode: string, q: SupplierNoticeQuery, now: Date): PageStatement {
  const where = whereSql([
    Prisma.sql`r.supplier_code = ${supplierCode}`,
    supplierStateSql(q.state, now),
    keywordSql(['n.number', 'n.title'], q.keyword),
    equalsSql('n.status', q.noticeStatus),
  ]);
  const order = orderBySql(SUPPLIER_NOTICE_SORT, q, 'n.id', INBOX_ORDER);
  return {
    page: Prisma.sql`${supplierNoticeSelect(now)} ${where} ${order} LIMIT ${q.results} OFFSET ${(q.page - 1) * q.results}`,
    fromWhere: Prisma.sql`FROM notice_recipient r JOIN change_notice n ON n.id = r.notice_id ${where}`,
  };
}

/** One supplier's notices (its inbox, the bell's latest, searchSupplierDetail): never drafts, never another supplier's. */
export async function pageSupplierNotices(
  db: Db,
  supplierCode: string,
  q: SupplierNoticeQuery,
  now = new Date(),
): Promise<Page<SupplierNoticeRow>> {
  checkWindow(q);
  const { page: pageSql, fromWhere } = supplierNoticePageSql(supplierCode, q, now);
  const page = await pageAndCount<SupplierNoticeRecord>(db, pageSql, fromWhere);
  return { ...page, rows: page.rows.map(toSupplierNoticeRow) };
}

/** One notice as the supplier stands on it, or null when it is not one of that supplier's. */
export async function findSupplierNotice(db: Db, supplierCode: string, noticeId: number, now = new Date()) {
  const [r] = await readRows<SupplierNoticeRecord>(
    db,
    Prisma.sql`${supplierNoticeSelect(now)} WHERE r.supplier_code = ${supplierCode} AND r.notice_id = ${noticeId}`,
  );
  return r ? { ...toSupplierNoticeRow(r), description: r.description ?? null } : null;
}
