/**
 * Mobile numbers. Lists send every number masked — masked in SQL, so the full number
 * never leaves the database on those paths; `reveal` is the only read of a full number: it checks
 * the caller may see that person, reads the number and writes the phone_view_log row in one
 * transaction, so every full number a caller got has its row.
 *
 * Who may see whom: internal users anyone; a supplier its own contacts, the purchasers (采购员)
 * named on the materials it supplies, and the sub-tier vendors' contacts on its own BOM lines. A contact out of scope answers like one that does not exist.
 */
import type { z } from 'zod';
import {
  maskMobile,
  type ContactKind,
  type ContactRow,
  type PhoneLogRow,
  type ZContactPageRequestSchema,
  type ZPhoneLogRequestSchema,
} from '@esm/contracts';
import { Prisma } from '../../generated/prisma/client.ts';
import type { Db } from '../../db/database.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { notFound } from '../../plugins/errors.ts';
import {
  dayRangeSql,
  equalsSql,
  jsonRow,
  keywordSql,
  listJsonPage,
  orderBySql,
  whereSql,
  type CappedTotal,
  type Condition,
} from '../../lib/list.ts';
import type { ClientInfo } from '../../lib/access-log.ts';

export const CONTACT_NOT_FOUND = '联系人不存在';

/** 138****5678 in SQL: the same mask as maskMobile, applied before the row leaves the database. */
const MASKED_MOBILE = Prisma.sql`CASE WHEN length(c.mobile) < 7 THEN repeat('*', length(c.mobile)) ELSE left(c.mobile, 3) || '****' || right(c.mobile, 4) END`;

/** A supplier sees its own contacts and the purchasers of the materials it supplies. */
const supplierScopeSql = (supplierCode: string) => Prisma.sql`(
  (c.kind = 'SUPPLIER' AND c.supplier_code = ${supplierCode})
  OR (c.kind = 'PURCHASER' AND c.name IN (
    SELECT m.purchaser FROM supplier_material sm JOIN material m ON m.code = sm.material_code
    WHERE sm.supplier_code = ${supplierCode} AND m.purchaser IS NOT NULL))
)`;

const CONTACT_SORT = { name: 'c.name', supplierCode: 'c.supplier_code' } as const;

export async function pageContacts(
  db: Db,
  q: z.output<typeof ZContactPageRequestSchema>,
  supplierCode?: string,
): Promise<{ rows: ContactRow[] } & CappedTotal> {
  const conditions: Condition[] = [
    supplierCode && supplierScopeSql(supplierCode),
    equalsSql('c.kind', q.kind),
    equalsSql('c.supplier_code', q.supplierCode),
    keywordSql(['c.name', 'c.title'], q.keyword),
  ];
  return listJsonPage<ContactRow>(db, q, {
    select: Prisma.sql`c.id, c.kind, c.supplier_code AS "supplierCode", s.name AS "supplierName", c.name, c.title, ${MASKED_MOBILE} AS mobile, c.email`,
    from: Prisma.sql`phone_contact c LEFT JOIN supplier s ON s.code = c.supplier_code`,
    where: whereSql(conditions),
    orderBy: orderBySql(CONTACT_SORT, q, 'c.id', 'c.kind DESC, c.supplier_code, c.id'),
  });
}

type Revealed = {
  id: number;
  kind: ContactKind;
  name: string;
  mobile: string;
  supplier_code: string | null;
  supplier_name: string | null;
};

/**
 * The person whose number is asked, if the caller may see it. A contact of the contacts list
 * (kind absent, SUPPLIER or PURCHASER) by its id; a BOM line's vendor contact (BOM_VENDOR)
 * by the line's id — a supplier only on its own lines; logged with the vendor's name as the
 * contact's company and the line's first-tier supplier's code (the log's supplier filter finds it).
 */
async function revealable(
  tx: Prisma.TransactionClient,
  contactId: number,
  kind: ContactKind | undefined,
  supplierCode?: string,
): Promise<Revealed | undefined> {
  if (kind === 'BOM_VENDOR') {
    const scope = supplierCode ? Prisma.sql`AND l.supplier_code = ${supplierCode}` : Prisma.empty;
    const [l] = await tx.$queryRaw<Revealed[]>(
      Prisma.sql`SELECT l.id, 'BOM_VENDOR' AS kind, coalesce(l.vendor_contact, l.vendor_name) AS name, l.vendor_mobile AS mobile,
          l.supplier_code, l.vendor_name AS supplier_name
        FROM bom_line l WHERE l.id = ${contactId} AND l.vendor_mobile IS NOT NULL ${scope}`,
    );
    return l;
  }
  const scope = supplierCode ? Prisma.sql`AND ${supplierScopeSql(supplierCode)}` : Prisma.empty;
  const [c] = await tx.$queryRaw<Revealed[]>(
    Prisma.sql`SELECT c.id, c.kind, c.name, c.mobile, c.supplier_code, s.name AS supplier_name
      FROM phone_contact c LEFT JOIN supplier s ON s.code = c.supplier_code
      WHERE c.id = ${contactId} ${kind ? Prisma.sql`AND c.kind = ${kind}` : Prisma.empty} ${scope}`,
  );
  return c;
}

/**
 * The full number of one contact (or BOM line's vendor contact), for a caller allowed to see it,
 * with its log row written in the same transaction. `supplierCode` set: the caller is that
 * supplier's user.
 */
export async function reveal(
  db: Db,
  user: SessionUser,
  target: { contactId: number; kind?: ContactKind },
  pageName: string,
  client: ClientInfo,
  supplierCode?: string,
): Promise<{ contactId: number; mobile: string; logId: number }> {
  return db.$transaction(async (tx) => {
    const c = await revealable(tx, target.contactId, target.kind, supplierCode);
    if (!c) throw notFound(CONTACT_NOT_FOUND);
    const log = await tx.phoneViewLog.create({
      select: { id: true },
      data: {
        viewerId: user.id,
        viewerAccount: user.account,
        viewerName: user.isSupplier ? user.nick : user.name,
        viewerType: user.type,
        viewerSupplierCode: user.isSupplier ? user.supplierCode : null,
        viewerSupplierName: user.isSupplier ? (user.supplierName?.slice(0, 200) ?? null) : null,
        contactId: c.id,
        contactKind: c.kind,
        contactName: c.name.slice(0, 100),
        contactSupplierCode: c.supplier_code,
        contactSupplierName: c.supplier_name?.slice(0, 200) ?? null,
        maskedMobile: maskMobile(c.mobile),
        page: pageName,
        ip: client.ip.slice(0, 64),
        userAgent: client.userAgent,
      },
    });
    return { contactId: c.id, mobile: c.mobile, logId: log.id };
  });
}

type LogQuery = z.output<typeof ZPhoneLogRequestSchema>;
const LOG_SORT = { createdAt: 'created_at', viewerAccount: 'viewer_account', contactName: 'contact_name' } as const;
const LOG_SELECT = Prisma.sql`id, viewer_account AS "viewerAccount", viewer_name AS "viewerName", viewer_type AS "viewerType", viewer_supplier_name AS "viewerSupplierName",
  contact_kind AS "contactKind", contact_name AS "contactName", contact_supplier_name AS "contactSupplierName", masked_mobile AS "maskedMobile", page, ip, created_at AS "createdAt"`;

const logWhere = (q: LogQuery) =>
  whereSql([
    keywordSql(['viewer_account', 'viewer_name'], q.viewer),
    equalsSql('viewer_type', q.viewerType),
    keywordSql(['contact_name'], q.contact),
    equalsSql('contact_kind', q.contactKind),
    q.supplierCode &&
      Prisma.sql`(contact_supplier_code = ${q.supplierCode} OR viewer_supplier_code = ${q.supplierCode})`,
    ...dayRangeSql('created_at', q.dateFrom, q.dateTo),
  ]);

export async function pagePhoneLog(db: Db, q: LogQuery): Promise<{ rows: PhoneLogRow[] } & CappedTotal> {
  return listJsonPage<PhoneLogRow>(db, q, {
    select: LOG_SELECT,
    from: Prisma.sql`phone_view_log`,
    where: logWhere(q),
    orderBy: orderBySql(LOG_SORT, q, 'id', 'id DESC'),
  });
}

/** The log as the export writes it: the list's filters and order, up to `max` rows (counted first). */
export async function phoneLogRows(db: Db, q: LogQuery, max: number): Promise<PhoneLogRow[] | null> {
  const rows = await db.$queryRaw<object[]>(
    Prisma.sql`SELECT ${LOG_SELECT} FROM phone_view_log ${logWhere(q)} ${orderBySql(LOG_SORT, q, 'id', 'id DESC')} LIMIT ${max + 1}`,
  );
  return rows.length > max ? null : rows.map(jsonRow<PhoneLogRow>);
}
