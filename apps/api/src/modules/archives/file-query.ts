/**
 * The one query behind every list of standard files (internal and supplier pagers, history, the
 * Excel export): filters → WHERE, sort → ORDER BY with id as tie-breaker, in SQL so each list is
 * a single index-backed statement (standard_file has (status, id), (material_code, status, id),
 * (standard_code, id)): the default list walks the primary key backwards, a material or status
 * filter walks its index, and the LIMIT stops the walk after one page.
 *
 * Codes (material, standard) match exactly — they are identifiers and their indexes serve that;
 * the name matches a part of it, case-insensitively (a trigram index serves 3+ characters).
 */
import { FILE_TYPES, type FileStatus, type FileType, type StandardFileRow } from '@esm/contracts';
import { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../../db/database.ts';
import { readRows } from '../../db/rows.ts';
import {
  bigramIndexed,
  cappedCount,
  checkWindow,
  containsText,
  orderBySql,
  pageAndCount,
  whereSql,
  type CappedTotal,
  type PageRequest,
  type PageStatement,
  type SortColumns,
} from '../../lib/list.ts';

export const FILE_SORT_COLUMNS = {
  standardCode: { column: 'sf.standard_code', cast: '' },
  name: { column: 'sf.name', cast: '' },
  version: { column: 'sf.version', cast: '' },
  effectiveDate: { column: 'sf.effective_date', cast: '::date' },
  // id grows with created_at (both set at insert), and the primary key serves it
  createdAt: { column: 'sf.id', cast: '' },
  materialCode: { column: 'sf.material_code', cast: '' },
} as const;
export type FileSortField = keyof typeof FILE_SORT_COLUMNS;
const SORT_SQL = Object.fromEntries(
  Object.entries(FILE_SORT_COLUMNS).map(([field, { column }]) => [field, column]),
) as SortColumns<FileSortField>;
/** The declared sort, id as tie-breaker in the same direction; newest first by default. */
const orderBy = (s: FileSort) => orderBySql(SORT_SQL, s, 'sf.id', 'sf.id DESC');

export interface FileFilter {
  productLineCode?: string;
  materialCode?: string;
  standardCode?: string;
  name?: string;
  version?: string;
  /** Effective date range, days YYYY-MM-DD, both ends included. */
  dateFrom?: string;
  dateTo?: string;
  /** Only these statuses (none: every status). */
  statuses?: readonly FileStatus[];
  /** A supplier's scope: only these materials (already the visible ones). */
  materialCodes?: readonly string[];
}

/**
 * The archive list's filter as the call sends it (one optional 状态) as a FileFilter: the list,
 * its Excel export and the list benchmark read a body alike.
 */
export const fileFilterOf = <T extends { status?: FileStatus }>({
  status,
  ...rest
}: T): Omit<T, 'status'> & Pick<FileFilter, 'statuses'> => ({
  ...rest,
  statuses: status ? [status] : undefined,
});

export interface FileSort {
  sortField?: FileSortField;
  sortOrder?: 'ascend' | 'descend';
}

/** A row as the list query reads it (snake_case, as selected below). */
export interface FileRecord {
  id: number;
  standard_code: string;
  name: string;
  version: string;
  version_no: number;
  material_code: string;
  material_name: string;
  product_line_code: string;
  product_line_name: string;
  category: string;
  secret_level: string;
  status: string;
  effective_date: string;
  uploader_name: string;
  file_name: string;
  file_size: number;
  file_type: string;
  created_at: Date;
  obsoleted_at: Date | null;
  obsolete_reason: string | null;
  remark: string | null;
  /** Only where the page was asked with `confirmedBy`. */
  confirmed_at?: Date | null;
}

const COLUMNS = Prisma.sql`sf.id, sf.standard_code, sf.name, sf.version, sf.version_no, sf.material_code,
  m.name AS material_name, m.product_line_code, pl.name AS product_line_name, sf.category, sf.secret_level,
  sf.status, to_char(sf.effective_date, 'YYYY-MM-DD') AS effective_date, sf.uploader_name, sf.file_name,
  sf.file_size, sf.file_type, sf.created_at, sf.obsoleted_at, sf.obsolete_reason, sf.remark`;
const FROM = Prisma.sql`FROM standard_file sf
JOIN material m ON m.code = sf.material_code
JOIN product_line pl ON pl.code = m.product_line_code`;
const SELECT = Prisma.sql`SELECT ${COLUMNS} ${FROM}`;

/**
 * `confirmed_at`: the user's latest successful confirmation of the row's file, or null — a
 * column of the page itself (the (file_id, action, user_id) index answers it for each of the
 * page's rows), not a second round trip.
 */
const confirmedAtSql = (userId: number) =>
  Prisma.sql`(SELECT max(a.created_at) FROM access_log a WHERE a.file_id = sf.id AND a.action = 'CONFIRM' AND a.outcome = 'OK' AND a.user_id = ${userId}) AS confirmed_at`;

/** True when the filter can match nothing (a supplier with no visible material). */
export const matchesNothing = (f: FileFilter) => f.materialCodes !== undefined && f.materialCodes.length === 0;

function conditions(f: FileFilter): Prisma.Sql[] {
  const c: Prisma.Sql[] = [];
  if (f.statuses?.length === 1) c.push(Prisma.sql`sf.status = ${f.statuses[0]}`);
  else if (f.statuses?.length) c.push(Prisma.sql`sf.status IN (${Prisma.join(f.statuses)})`);
  if (f.materialCodes) c.push(Prisma.sql`sf.material_code = ANY(${[...f.materialCodes]}::text[])`);
  if (f.materialCode) c.push(Prisma.sql`sf.material_code = ${f.materialCode}`);
  if (f.productLineCode)
    c.push(Prisma.sql`sf.material_code IN (SELECT code FROM material WHERE product_line_code = ${f.productLineCode})`);
  if (f.standardCode) c.push(Prisma.sql`sf.standard_code = ${f.standardCode}`);
  if (f.name) c.push(containsText(bigramIndexed('sf.name'), f.name));
  if (f.version) c.push(Prisma.sql`sf.version = ${f.version}`);
  if (f.dateFrom) c.push(Prisma.sql`sf.effective_date >= ${f.dateFrom}::date`);
  if (f.dateTo) c.push(Prisma.sql`sf.effective_date <= ${f.dateTo}::date`);
  return c;
}

export const fileWhere = (f: FileFilter): Prisma.Sql => whereSql(conditions(f));

interface Order {
  column: string;
  cast: string;
  desc: boolean;
}

/** The sort as the keyset of fileBatches reads it. */
function fileOrder(s: FileSort): Order {
  if (!s.sortField || !s.sortOrder) return { column: 'sf.id', cast: '', desc: true };
  const { column, cast } = FILE_SORT_COLUMNS[s.sortField];
  return { column, cast, desc: s.sortOrder === 'descend' };
}

const SORT_KEY: Record<string, (r: FileRecord) => string | number> = {
  'sf.id': (r) => r.id,
  'sf.standard_code': (r) => r.standard_code,
  'sf.name': (r) => r.name,
  'sf.version': (r) => r.version,
  'sf.effective_date': (r) => r.effective_date,
  'sf.material_code': (r) => r.material_code,
};

/** Rows strictly after `last` in the order `o` (keyset: no OFFSET, so every batch costs the same). */
function after(o: Order, last: FileRecord): Prisma.Sql {
  const cmp = Prisma.raw(o.desc ? '<' : '>');
  if (o.column === 'sf.id') return Prisma.sql`sf.id ${cmp} ${last.id}`;
  const key = SORT_KEY[o.column]!(last);
  return Prisma.sql`(${Prisma.raw(o.column)}, sf.id) ${cmp} (${key}${Prisma.raw(o.cast)}, ${last.id})`;
}

export function toFileRow(r: FileRecord): StandardFileRow {
  return {
    id: r.id,
    standardCode: r.standard_code,
    name: r.name,
    version: r.version,
    versionNo: r.version_no,
    materialCode: r.material_code,
    materialName: r.material_name,
    productLineCode: r.product_line_code,
    category: r.category as StandardFileRow['category'],
    secretLevel: r.secret_level as StandardFileRow['secretLevel'],
    status: r.status as StandardFileRow['status'],
    effectiveDate: r.effective_date,
    fileName: r.file_name,
    fileSize: r.file_size,
    fileType: r.file_type as FileType,
    viewable: FILE_TYPES[r.file_type as FileType]?.viewable ?? false,
    uploaderName: r.uploader_name,
    createdAt: r.created_at.toISOString(),
    obsoletedAt: r.obsoleted_at?.toISOString() ?? null,
    obsoleteReason: r.obsolete_reason,
    remark: r.remark,
    ...(r.confirmed_at !== undefined && { confirmedAt: r.confirmed_at?.toISOString() ?? null }),
  };
}

/** Counts the matching files up to `cap` + 1 (see lib/list.ts). */
export function countFiles(db: Db, f: FileFilter, cap?: number): Promise<CappedTotal> {
  if (matchesNothing(f)) return Promise.resolve({ total: 0, totalCapped: false });
  return cappedCount(db, Prisma.sql`FROM standard_file sf ${fileWhere(f)}`, cap);
}

/** What a page of files may add to its rows. */
export interface FilePageOptions {
  /** Each row's `confirmedAt`: this user's latest successful confirmation of the file (the supplier's lists). */
  confirmedBy?: number;
}

/**
 * pageFiles' one statement: a deferred join — the page's ids found on standard_file alone (an
 * index-only walk past the OFFSET rows on deep pages), then only those rows read and joined —
 * and the FROM … WHERE its capped count walks (the benchmark sends the same).
 */
export function filePageStatement(f: FileFilter, q: FileSort & PageRequest, o: FilePageOptions = {}): PageStatement {
  const offset = (q.page - 1) * q.results;
  const order = orderBy(q);
  const pageIds = Prisma.sql`SELECT sf.id FROM standard_file sf ${fileWhere(f)} ${order} LIMIT ${q.results} OFFSET ${offset}`;
  const columns = o.confirmedBy === undefined ? COLUMNS : Prisma.sql`${COLUMNS}, ${confirmedAtSql(o.confirmedBy)}`;
  return {
    page: Prisma.sql`WITH page AS (${pageIds}) SELECT ${columns} ${FROM} WHERE sf.id IN (SELECT id FROM page) ${order}`,
    fromWhere: Prisma.sql`FROM standard_file sf ${fileWhere(f)}`,
  };
}

/** One page of files, with its capped total. */
export async function pageFiles(
  db: Db,
  f: FileFilter,
  q: FileSort & PageRequest,
  o: FilePageOptions = {},
): Promise<{ rows: StandardFileRow[] } & CappedTotal> {
  checkWindow(q);
  if (matchesNothing(f)) return { rows: [], total: 0, totalCapped: false };
  const { page, fromWhere } = filePageStatement(f, q, o);
  const { rows, ...total } = await pageAndCount<FileRecord>(db, page, fromWhere);
  return { rows: rows.map(toFileRow), ...total };
}

/** Every matching file in list order, `size` rows a query, read as the caller consumes them. */
export async function* fileBatches(db: Db, f: FileFilter, s: FileSort, size = 1000): AsyncGenerator<FileRecord[]> {
  if (matchesNothing(f)) return;
  const o = fileOrder(s);
  const base = conditions(f);
  let last: FileRecord | undefined;
  for (;;) {
    const cond = whereSql(last ? [...base, after(o, last)] : base);
    const batch = await readRows<FileRecord>(db, Prisma.sql`${SELECT} ${cond} ${orderBy(s)} LIMIT ${size}`);
    if (batch.length) yield batch;
    if (batch.length < size) return;
    last = batch[batch.length - 1];
  }
}

/** One file as a list row (after an upload or an obsolete), or null. */
export async function findFileRow(db: Db, id: number): Promise<StandardFileRow | null> {
  const [r] = await readRows<FileRecord>(db, Prisma.sql`${SELECT} WHERE sf.id = ${id}`);
  return r ? toFileRow(r) : null;
}
