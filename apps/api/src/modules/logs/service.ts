/**
 * The five logs (view, confirm, download, print, confidentiality agreement) are one table,
 * access_log, told apart by `action`. Each page is one SQL statement led by the action, so it
 * walks an (action, …) index: (action, id) by default, (action, supplier_code, id),
 * (action, material_code, id) or (action, standard_code, id) when that code is given — codes
 * match exactly for that reason — and (action, created_at) for a day range. The user matches a
 * part of the account or the name (a scan of that action's rows).
 */
import type { z } from 'zod';
import type { LogAction, LogRow, ZLogRequestSchema } from '@esm/contracts';
import { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../../db/database.ts';
import {
  bigramIndexed,
  dayRangeSql,
  equalsSql,
  keywordSql,
  listPage,
  mapPage,
  orderBySql,
  whereSql,
  type CappedTotal,
  type ListParts,
  type SortColumns,
} from '../../lib/list.ts';

export type LogQuery = z.output<typeof ZLogRequestSchema>;

const SORT_COLUMNS: SortColumns<NonNullable<LogQuery['sortField']>> = {
  createdAt: 'created_at',
  standardCode: 'standard_code',
  supplierCode: 'supplier_code',
  userAccount: 'user_account',
  materialCode: 'material_code',
};

interface LogRecord {
  id: number;
  action: string;
  outcome: string;
  reason: string | null;
  user_account: string;
  user_name: string;
  user_type: number;
  supplier_code: string | null;
  supplier_name: string | null;
  file_id: number | null;
  standard_code: string | null;
  file_name: string | null;
  version: string | null;
  material_code: string | null;
  material_name: string | null;
  ip: string | null;
  created_at: Date;
  /** A SENT row's delivery (lib/access-log-delivery.ts): null when none was recorded. */
  delivered: boolean | null;
  bytes_sent: bigint | number | null;
  bytes_total: bigint | number | null;
}

/** A SENT row whose delivery was recorded complete. */
const DELIVERED = Prisma.sql`EXISTS (SELECT 1 FROM access_delivery d WHERE d.access_log_id = access_log.id AND d.complete)`;

/** The outcome filter in the words of the page: a delivery is OK only when all its bytes went out. */
function outcomeSql(outcome: LogQuery['outcome']): Prisma.Sql | undefined {
  if (outcome === 'OK') return Prisma.sql`(outcome = 'OK' OR (outcome = 'SENT' AND ${DELIVERED}))`;
  if (outcome === 'PARTIAL') return Prisma.sql`(outcome = 'SENT' AND NOT ${DELIVERED})`;
  if (outcome === 'REFUSED') return Prisma.sql`outcome = 'REFUSED'`;
  return undefined;
}

function logWhere(action: LogAction, q: LogQuery): Prisma.Sql {
  return whereSql([
    Prisma.sql`action = ${action}`,
    equalsSql('supplier_code', q.supplierCode),
    equalsSql('material_code', q.materialCode),
    equalsSql('standard_code', q.standardCode),
    keywordSql([bigramIndexed('user_account'), bigramIndexed('user_name')], q.user),
    outcomeSql(q.outcome),
    ...dayRangeSql('created_at', q.dateFrom, q.dateTo),
  ]);
}

/**
 * Newest first by default. Rows are inserted in time order, so id order is time order: without
 * a day filter the id walks the (action, …, id) index of whatever code is filtered on; with one,
 * the same order is asked as created_at so that (action, created_at) serves it — the planner,
 * assuming days spread evenly over ids, would otherwise walk all of the newer ids first.
 */
const logOrder = (q: LogQuery) =>
  orderBySql(SORT_COLUMNS, q, 'id', q.dateFrom || q.dateTo ? 'created_at DESC, id DESC' : 'id DESC');

/** A SENT row reads OK once its delivery was recorded complete, PARTIAL otherwise (cut short, or never ended). */
function outcomeOf(r: LogRecord): Pick<LogRow, 'outcome' | 'delivery'> {
  if (r.outcome !== 'SENT') return { outcome: r.outcome as LogRow['outcome'] };
  if (r.delivered) return { outcome: 'OK' };
  return {
    outcome: 'PARTIAL',
    delivery: r.bytes_total == null ? null : { bytesSent: Number(r.bytes_sent), bytesTotal: Number(r.bytes_total) },
  };
}

function toLogRow(r: LogRecord): LogRow {
  return {
    id: r.id,
    action: r.action as LogRow['action'],
    ...outcomeOf(r),
    reason: r.reason,
    userAccount: r.user_account,
    userName: r.user_name,
    userType: r.user_type,
    supplierCode: r.supplier_code,
    supplierName: r.supplier_name,
    fileId: r.file_id,
    standardCode: r.standard_code,
    fileName: r.file_name,
    version: r.version,
    materialCode: r.material_code,
    materialName: r.material_name,
    ip: r.ip,
    createdAt: r.created_at.toISOString(),
  };
}

/** pageLog's parts of the one list statement (lib/list.ts listPage; the benchmark sends the same). */
export function logListParts(action: LogAction, q: LogQuery): ListParts {
  return {
    select: Prisma.sql`id, action, outcome, reason, user_account, user_name, user_type, supplier_code, supplier_name,
        file_id, standard_code, file_name, version, material_code, material_name, ip, created_at,
        delivered, bytes_sent, bytes_total`,
    from: Prisma.sql`access_log`,
    where: logWhere(action, q),
    orderBy: logOrder(q),
    // a delivery's end (at most one row per log row), looked up for the page's rows only; its
    // columns are named apart from access_log's, which the sort names bare
    lookups: {
      alias: 'access_log',
      joins: Prisma.sql`LEFT JOIN (SELECT access_log_id, complete AS delivered, bytes_sent, bytes_total FROM access_delivery) d ON d.access_log_id = access_log.id`,
    },
  };
}

export async function pageLog(db: Db, action: LogAction, q: LogQuery): Promise<{ rows: LogRow[] } & CappedTotal> {
  return mapPage(await listPage<LogRecord>(db, q, logListParts(action, q)), toLogRow);
}
