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
import { checkWindow, containsText, pageAndCount, type CappedTotal } from '../../lib/listWindow.ts';
import { dayRange } from '../../lib/dates.ts';

type LogQuery = z.output<typeof ZLogRequestSchema>;

const SORT_COLUMNS: Record<NonNullable<LogQuery['sortField']>, string> = {
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
}

function logWhere(action: LogAction, q: LogQuery): Prisma.Sql {
  const c: Prisma.Sql[] = [Prisma.sql`action = ${action}`];
  if (q.supplierCode) c.push(Prisma.sql`supplier_code = ${q.supplierCode}`);
  if (q.materialCode) c.push(Prisma.sql`material_code = ${q.materialCode}`);
  if (q.standardCode) c.push(Prisma.sql`standard_code = ${q.standardCode}`);
  if (q.user) c.push(Prisma.sql`(${containsText('user_account', q.user)} OR ${containsText('user_name', q.user)})`);
  if (q.outcome) c.push(Prisma.sql`outcome = ${q.outcome}`);
  const { gte, lt } = dayRange(q.dateFrom, q.dateTo);
  if (gte) c.push(Prisma.sql`created_at >= ${gte}`);
  if (lt) c.push(Prisma.sql`created_at < ${lt}`);
  return Prisma.sql`WHERE ${Prisma.join(c, ' AND ')}`;
}

/**
 * Newest first by default. Rows are inserted in time order, so id order is time order: without
 * a day filter the id walks the (action, …, id) index of whatever code is filtered on; with one,
 * the same order is asked as created_at so that (action, created_at) serves it — the planner,
 * assuming days spread evenly over ids, would otherwise walk all of the newer ids first.
 */
function logOrder(q: LogQuery): Prisma.Sql {
  const byDay = Boolean(q.dateFrom || q.dateTo);
  if (!q.sortField || !q.sortOrder) return Prisma.raw(byDay ? 'ORDER BY created_at DESC, id DESC' : 'ORDER BY id DESC');
  const dir = q.sortOrder === 'descend' ? 'DESC' : 'ASC';
  return Prisma.raw(`ORDER BY ${SORT_COLUMNS[q.sortField]} ${dir}, id ${dir}`);
}

function toLogRow(r: LogRecord): LogRow {
  return {
    id: r.id,
    action: r.action as LogRow['action'],
    outcome: r.outcome as LogRow['outcome'],
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

export async function pageLog(db: Db, action: LogAction, q: LogQuery): Promise<{ rows: LogRow[] } & CappedTotal> {
  checkWindow(q);
  const where = logWhere(action, q);
  const { rows, ...total } = await pageAndCount<LogRecord>(
    db,
    Prisma.sql`SELECT id, action, outcome, reason, user_account, user_name, user_type, supplier_code, supplier_name,
        file_id, standard_code, file_name, version, material_code, material_name, ip, created_at
      FROM access_log ${where} ${logOrder(q)} LIMIT ${q.results} OFFSET ${(q.page - 1) * q.results}`,
    Prisma.sql`FROM access_log ${where}`,
  );
  return { rows: rows.map(toLogRow), ...total };
}
