/**
 * The BOM's reads (the tree by level-1 material, the sub-tier vendors, the manufacturer's
 * overview and where-used search) and its line moves (add, edit, delete). Every query is scoped
 * by the supplier it is given: the supplier routes pass the caller's own, so another supplier's
 * line answers exactly like one that does not exist (404 BOM 行不存在).
 */
import {
  type BomFlatLine,
  type BomLevel2,
  type BomLine,
  type BomMaterialNode,
  type BomMaterialOption,
  type BomSupplierRow,
  type BomVendorRow,
  type WhereUsedRow,
} from '@esm/contracts';
import { z } from 'zod';
import {
  ZAddBomLineRequestSchema,
  ZBomExportRequestSchema,
  ZBomTreeRequestSchema,
  ZBomVendorRequestSchema,
  ZBomSupplierRequestSchema,
  ZUpdateBomLineRequestSchema,
  ZWhereUsedRequestSchema,
} from '@esm/contracts';
import type { Db } from '../../db/database.ts';
import { readRows } from '../../db/rows.ts';
import { Prisma } from '../../generated/prisma/client.ts';
import {
  equalsSql,
  keywordSql,
  listJsonPage,
  listPage,
  mapPage,
  orderBySql,
  whereSql,
  type CappedTotal,
  type Condition,
} from '../../lib/list.ts';
import { badRequest, conflict, notFound } from '../../plugins/errors.ts';
import { extended, maskMobile } from './rules.ts';

type TreeQuery = z.output<typeof ZBomTreeRequestSchema>;
type TreeFilters = Omit<TreeQuery, 'results' | 'page' | 'sortField' | 'sortOrder' | 'view'>;
type FlatSort = Pick<z.output<typeof ZBomExportRequestSchema>, 'sortField' | 'sortOrder'>;
type VendorQuery = z.output<typeof ZBomVendorRequestSchema>;
type VendorFilters = Omit<VendorQuery, 'results' | 'page' | 'sortField' | 'sortOrder'>;
type Tx = Prisma.TransactionClient;

export const LINE_NOT_FOUND = 'BOM 行不存在';

/** Who changes a BOM (the event row and the lines' updatedBy). */
export interface Actor {
  id: number;
  account: string;
  name: string;
}

// ---- the tree ----------------------------------------------------------------------------------------

/** The line filters as SQL on alias `l` (component, vendor, level). */
function lineConditions(f: TreeFilters): Condition[] {
  return [
    keywordSql(['l.component_code', 'l.component_name'], f.component),
    keywordSql(['l.vendor_name', 'l.vendor_credit_code'], f.vendor),
    equalsSql('l.level', f.level ? Number(f.level) : undefined),
  ];
}
const hasLineFilter = (f: TreeFilters) => Boolean(f.component || f.vendor || f.level);

interface LineRow {
  id: number;
  level: number;
  parentId: number | null;
  materialCode: string;
  parentCode: string;
  componentCode: string;
  componentName: string;
  spec: string | null;
  quantity: number;
  unit: string;
  hasDrawing: boolean;
  vendorName: string;
  vendorCreditCode: string;
  vendorRegion: string | null;
  vendorContact: string | null;
  vendorMobile: string | null;
  updatedBy: string;
  updatedAt: Date;
  matched: boolean;
}

const LINE_COLUMNS = Prisma.sql`l.id, l.level, l.parent_id AS "parentId", l.material_code AS "materialCode", l.parent_code AS "parentCode",
  l.component_code AS "componentCode", l.component_name AS "componentName", l.spec, l.quantity::float8 AS quantity, l.unit,
  l.has_drawing AS "hasDrawing", l.vendor_name AS "vendorName", l.vendor_credit_code AS "vendorCreditCode", l.vendor_region AS "vendorRegion",
  l.vendor_contact AS "vendorContact", l.vendor_mobile AS "vendorMobile", l.updated_by AS "updatedBy", l.updated_at AS "updatedAt"`;

/** A line as every response shows it: the mobile masked, the quantity per level-1 unit. */
function lineOut(r: Omit<LineRow, 'matched'> & { matched?: boolean }, parentQuantity?: number): BomLine {
  return {
    id: r.id,
    level: r.level,
    parentId: r.parentId,
    materialCode: r.materialCode,
    parentCode: r.parentCode,
    componentCode: r.componentCode,
    componentName: r.componentName,
    spec: r.spec,
    quantity: Number(r.quantity),
    extendedQuantity: parentQuantity === undefined ? Number(r.quantity) : extended(parentQuantity, Number(r.quantity)),
    unit: r.unit,
    hasDrawing: r.hasDrawing,
    vendorName: r.vendorName,
    vendorCreditCode: r.vendorCreditCode,
    vendorRegion: r.vendorRegion,
    vendorContact: r.vendorContact,
    vendorMobile: maskMobile(r.vendorMobile),
    updatedBy: r.updatedBy,
    updatedAt: r.updatedAt.toISOString(),
    matched: r.matched ?? true,
  };
}

/** The supplier's level-1 materials: those it supplies, and those it still has a BOM for. */
const materialsOf = (supplierCode: string) => Prisma.sql`(
  SELECT m.code, m.name, m.spec, EXISTS (SELECT 1 FROM supplier_material sm WHERE sm.supplier_code = ${supplierCode} AND sm.material_code = m.code) AS supplied
  FROM material m
  WHERE m.code IN (SELECT material_code FROM supplier_material WHERE supplier_code = ${supplierCode} UNION SELECT material_code FROM bom_line WHERE supplier_code = ${supplierCode})
) m`;

/** One page of the supplier's materials with their BOM trees (the lines the filters keep, and their parents). */
export async function bomTree(
  db: Db,
  supplierCode: string,
  q: TreeQuery,
): Promise<{ rows: BomMaterialNode[] } & CappedTotal> {
  const lineFilter = whereSql([
    Prisma.sql`l.supplier_code = ${supplierCode}`,
    Prisma.sql`l.material_code = m.code`,
    ...lineConditions(q),
  ]);
  const page = await listPage<{ code: string; name: string; spec: string | null; supplied: boolean }>(db, q, {
    select: Prisma.sql`m.code, m.name, m.spec, m.supplied`,
    from: materialsOf(supplierCode),
    where: whereSql([
      keywordSql(['m.code', 'm.name'], q.materialCode),
      hasLineFilter(q) && Prisma.sql`EXISTS (SELECT 1 FROM bom_line l ${lineFilter})`,
    ]),
    // the request's refine lets the tree sort by the material only
    orderBy: orderBySql(
      { materialCode: 'm.code' },
      { sortField: q.sortField === 'materialCode' ? q.sortField : undefined, sortOrder: q.sortOrder },
      'm.code',
      'm.code',
    ),
  });
  const codes = page.rows.map((r) => r.code);
  if (!codes.length) return { ...page, rows: [] };
  const conditions = lineConditions(q).filter((c): c is Prisma.Sql => Boolean(c));
  const matched = conditions.length ? Prisma.sql`(${Prisma.join(conditions, ' AND ')})` : Prisma.sql`true`;
  const lines = await readRows<LineRow>(
    db,
    Prisma.sql`SELECT ${LINE_COLUMNS}, ${matched} AS matched FROM bom_line l
      WHERE l.supplier_code = ${supplierCode} AND l.material_code IN (${Prisma.join(codes)}) ORDER BY l.level, l.sort_no, l.id`,
  );
  const filtered = hasLineFilter(q);
  return {
    ...page,
    rows: page.rows.map((m) =>
      materialNode(
        m,
        lines.filter((l) => l.materialCode === m.code),
        filtered,
        Boolean(q.level),
      ),
    ),
  };
}

function materialNode(
  m: { code: string; name: string; spec: string | null; supplied: boolean },
  lines: LineRow[],
  filtered: boolean,
  byLevel: boolean,
): BomMaterialNode {
  const level2 = lines.filter((l) => l.level === 2);
  const childrenOf = new Map<number, LineRow[]>();
  for (const l of lines)
    if (l.level === 3 && l.parentId !== null) childrenOf.set(l.parentId, [...(childrenOf.get(l.parentId) ?? []), l]);
  const children: BomLevel2[] = [];
  for (const l2 of level2) {
    const kids = childrenOf.get(l2.id) ?? [];
    // filtered: a matching line and its parent; a matching level-2 line keeps its children as context (unless a level is asked)
    const shownKids = !filtered ? kids : l2.matched && !byLevel ? kids : kids.filter((k) => k.matched);
    if (filtered && !l2.matched && shownKids.length === 0) continue;
    const node: BomLevel2 = lineOut(l2);
    if (shownKids.length) node.children = shownKids.map((k) => lineOut(k, Number(l2.quantity)));
    children.push(node);
  }
  const last = lines.reduce<LineRow | undefined>((a, l) => (!a || l.updatedAt > a.updatedAt ? l : a), undefined);
  return {
    materialCode: m.code,
    materialName: m.name,
    materialSpec: m.spec,
    supplied: m.supplied,
    lineCount: lines.length,
    level2Count: level2.length,
    level3Count: lines.length - level2.length,
    vendorCount: new Set(lines.map((l) => l.vendorCreditCode)).size,
    updatedAt: last ? last.updatedAt.toISOString() : null,
    updatedBy: last ? last.updatedBy : null,
    ...(children.length ? { children } : {}),
  };
}

/** Every line the tree's filters keep, flat in tree order (the export). */
/**
 * Every line of the tree view in tree order (the tree's export). With `cap`, null when the matched
 * materials hold more lines than that: the tree is built from all of them, so they are counted first.
 */
export async function bomLinesFlat(
  db: Db,
  supplierCode: string,
  f: TreeFilters,
  cap?: number,
): Promise<(BomLine & { materialName: string })[] | null> {
  const materials = await readRows<{ code: string; name: string; spec: string | null; supplied: boolean }>(
    db,
    Prisma.sql`SELECT m.code, m.name, m.spec, m.supplied FROM ${materialsOf(supplierCode)} ${whereSql([keywordSql(['m.code', 'm.name'], f.materialCode)])} ORDER BY m.code`,
  );
  if (!materials.length) return [];
  const ofMaterials = Prisma.sql`l.supplier_code = ${supplierCode} AND l.material_code IN (${Prisma.join(materials.map((m) => m.code))})`;
  if (cap !== undefined) {
    const [{ n }] = await readRows<{ n: number }>(
      db,
      Prisma.sql`SELECT count(*)::int AS n FROM bom_line l WHERE ${ofMaterials}`,
    );
    if (n > cap) return null;
  }
  const conditions = lineConditions(f).filter((c): c is Prisma.Sql => Boolean(c));
  const matched = conditions.length ? Prisma.sql`(${Prisma.join(conditions, ' AND ')})` : Prisma.sql`true`;
  const lines = await readRows<LineRow>(
    db,
    Prisma.sql`SELECT ${LINE_COLUMNS}, ${matched} AS matched FROM bom_line l
      WHERE ${ofMaterials} ORDER BY l.level, l.sort_no, l.id`,
  );
  const out: (BomLine & { materialName: string })[] = [];
  for (const m of materials) {
    const node = materialNode(
      m,
      lines.filter((l) => l.materialCode === m.code),
      hasLineFilter(f),
      Boolean(f.level),
    );
    for (const l2 of node.children ?? []) {
      out.push({ ...l2, materialName: m.name });
      for (const l3 of l2.children ?? []) out.push({ ...l3, materialName: m.name });
    }
  }
  return out;
}

// ---- the flat view ---------------------------------------------------------------------------------

/**
 * The flat view (平铺): exactly the lines the filters keep (no parents or children as context),
 * one page of lines, sortable. By default in tree order: by material, each level-2 line followed
 * by its level-3 lines.
 */
const FLAT_FROM = Prisma.sql`bom_line l LEFT JOIN bom_line p ON p.id = l.parent_id LEFT JOIN material m ON m.code = l.material_code`;
const FLAT_EXTENDED = 'l.quantity * coalesce(p.quantity, 1)';
const FLAT_SELECT = Prisma.sql`${LINE_COLUMNS}, true AS matched, (${Prisma.raw(FLAT_EXTENDED)})::float8 AS "extendedQuantity",
  coalesce(m.name, l.material_code) AS "materialName", coalesce(p.component_name, m.name, l.material_code) AS "parentName"`;
const FLAT_SORT = {
  materialCode: 'l.material_code',
  level: 'l.level',
  componentCode: 'l.component_code',
  componentName: 'l.component_name',
  quantity: 'l.quantity',
  extendedQuantity: `(${FLAT_EXTENDED})`,
  vendorName: 'l.vendor_name',
  updatedAt: 'l.updated_at',
} as const;
const FLAT_TREE_ORDER =
  'l.material_code, coalesce(p.sort_no, l.sort_no), coalesce(l.parent_id, l.id), l.level, l.sort_no, l.id';

const flatWhere = (supplierCode: string, f: TreeFilters) =>
  whereSql([
    Prisma.sql`l.supplier_code = ${supplierCode}`,
    keywordSql(['l.material_code', 'm.name'], f.materialCode),
    ...lineConditions(f),
  ]);

type FlatRow = LineRow & { extendedQuantity: number; materialName: string; parentName: string };
const flatOut = (r: FlatRow): BomFlatLine => ({
  ...lineOut(r),
  extendedQuantity: extended(r.extendedQuantity),
  materialName: r.materialName,
  parentName: r.parentName,
});

/** One page of the supplier's lines the filters keep, flat. */
export async function bomFlat(
  db: Db,
  supplierCode: string,
  q: TreeQuery,
): Promise<{ rows: BomFlatLine[] } & CappedTotal> {
  const page = await listPage<FlatRow>(db, q, {
    select: FLAT_SELECT,
    from: FLAT_FROM,
    where: flatWhere(supplierCode, q),
    orderBy: orderBySql(FLAT_SORT, q, 'l.id', FLAT_TREE_ORDER),
  });
  return mapPage(page, flatOut);
}

/** Every line the flat view's filters keep, in its order (the export of the flat view); at most `limit`. */
export async function bomFlatAll(
  db: Db,
  supplierCode: string,
  f: TreeFilters & FlatSort,
  limit: number,
): Promise<BomFlatLine[]> {
  const rows = await readRows<FlatRow>(
    db,
    Prisma.sql`SELECT ${FLAT_SELECT} FROM ${FLAT_FROM} ${flatWhere(supplierCode, f)} ${orderBySql(FLAT_SORT, f, 'l.id', FLAT_TREE_ORDER)} LIMIT ${limit}`,
  );
  return rows.map(flatOut);
}

/** searchBomLevelList: the tree (by material) or the flat view, as the request asks. */
export async function bomLevelList(
  db: Db,
  supplierCode: string,
  q: TreeQuery,
): Promise<{ rows: (BomMaterialNode | BomFlatLine)[] } & CappedTotal> {
  return q.view === 'flat' ? bomFlat(db, supplierCode, q) : bomTree(db, supplierCode, q);
}

/** The materials the supplier supplies, for the line form's picker. */
export async function bomMaterials(db: Db, supplierCode: string): Promise<BomMaterialOption[]> {
  return readRows<BomMaterialOption>(
    db,
    Prisma.sql`SELECT m.code, m.name, m.spec, (SELECT count(*)::int FROM bom_line l WHERE l.supplier_code = ${supplierCode} AND l.material_code = m.code) AS "lineCount"
      FROM supplier_material sm JOIN material m ON m.code = sm.material_code WHERE sm.supplier_code = ${supplierCode} ORDER BY m.code`,
  );
}

// ---- vendors -------------------------------------------------------------------------------------------

const VENDOR_SORT = {
  name: 'v.name',
  creditCode: 'v."creditCode"',
  lineCount: 'v."lineCount"',
  componentCount: 'v."componentCount"',
  materialCount: 'v."materialCount"',
} as const;

/** The vendors of the supplier's lines, one row per credit code (its latest name, region, contact). */
export async function bomVendors(
  db: Db,
  supplierCode: string,
  q: VendorQuery,
): Promise<{ rows: BomVendorRow[] } & CappedTotal> {
  const grouped = vendorGroups(supplierCode, q);
  const page = await listPage<Omit<BomVendorRow, 'components' | 'materials'>>(db, q, {
    select: Prisma.sql`v.*`,
    from: Prisma.sql`(${grouped}) v`,
    where: Prisma.empty,
    orderBy: orderBySql(VENDOR_SORT, q, 'v."creditCode"', 'v."lineCount" DESC, v."creditCode"'),
  });
  return { ...page, rows: await withComponents(db, supplierCode, page.rows) };
}

function vendorGroups(supplierCode: string, f: VendorFilters): Prisma.Sql {
  const latest = (col: string) => Prisma.raw(`(array_agg(l.${col} ORDER BY l.updated_at DESC, l.id DESC))[1]`);
  return Prisma.sql`SELECT ${latest('id')} AS "lineId", l.vendor_credit_code AS "creditCode", ${latest('vendor_name')} AS name, ${latest('vendor_region')} AS region,
      ${latest('vendor_contact')} AS contact, ${latest('vendor_mobile')} AS mobile,
      count(*)::int AS "lineCount", count(DISTINCT l.component_code)::int AS "componentCount", count(DISTINCT l.material_code)::int AS "materialCount"
    FROM bom_line l
    ${whereSql([
      Prisma.sql`l.supplier_code = ${supplierCode}`,
      keywordSql(['l.vendor_name', 'l.vendor_credit_code'], f.keyword),
      keywordSql(['l.vendor_region'], f.region),
      f.component &&
        Prisma.sql`l.vendor_credit_code IN (SELECT c.vendor_credit_code FROM bom_line c WHERE c.supplier_code = ${supplierCode} AND ${keywordSql(['c.component_code', 'c.component_name'], f.component) as Prisma.Sql})`,
    ])}
    GROUP BY l.vendor_credit_code`;
}

async function withComponents(
  db: Db,
  supplierCode: string,
  rows: Omit<BomVendorRow, 'components' | 'materials'>[],
): Promise<BomVendorRow[]> {
  if (!rows.length) return [];
  const codes = rows.map((r) => r.creditCode);
  const parts = await readRows<{
    vendor: string;
    code: string;
    name: string;
    level: number;
    materialCode: string;
    materialName: string;
  }>(
    db,
    Prisma.sql`SELECT DISTINCT ON (l.vendor_credit_code, l.component_code, l.material_code) l.vendor_credit_code AS vendor, l.component_code AS code,
        l.component_name AS name, l.level, l.material_code AS "materialCode", coalesce(m.name, l.material_code) AS "materialName"
      FROM bom_line l LEFT JOIN material m ON m.code = l.material_code
      WHERE l.supplier_code = ${supplierCode} AND l.vendor_credit_code IN (${Prisma.join(codes)})
      ORDER BY l.vendor_credit_code, l.component_code, l.material_code`,
  );
  return rows.map((r) => {
    const mine = parts.filter((p) => p.vendor === r.creditCode);
    const materials = new Map(mine.map((p) => [p.materialCode, p.materialName]));
    return {
      ...r,
      mobile: maskMobile(r.mobile),
      components: mine
        .slice(0, 50)
        .map((p) => ({ code: p.code, name: p.name, level: p.level, materialCode: p.materialCode })),
      materials: [...materials].map(([code, name]) => ({ code, name })),
    };
  });
}

/** Every vendor the filters keep (the export); at most `limit`. */
export async function bomVendorsAll(
  db: Db,
  supplierCode: string,
  f: VendorFilters,
  limit: number,
): Promise<BomVendorRow[]> {
  const rows = await readRows<Omit<BomVendorRow, 'components' | 'materials'>>(
    db,
    Prisma.sql`SELECT v.* FROM (${vendorGroups(supplierCode, f)}) v ORDER BY v."lineCount" DESC, v."creditCode" LIMIT ${limit}`,
  );
  return withComponents(db, supplierCode, rows);
}

// ---- the manufacturer's views -----------------------------------------------------------------------------

const SUPPLIER_SORT = {
  supplierCode: 's.code',
  lineCount: '"lineCount"',
  vendorCount: '"vendorCount"',
  updatedAt: '"updatedAt"',
} as const;

/** Each supplier with what its BOM covers: suppliers with a BOM first. */
export async function bomSuppliers(
  db: Db,
  q: z.output<typeof ZBomSupplierRequestSchema>,
): Promise<{ rows: BomSupplierRow[] } & CappedTotal> {
  return listJsonPage<BomSupplierRow>(db, q, {
    select: Prisma.sql`s.code AS "supplierCode", s.name AS "supplierName",
      (SELECT count(*)::int FROM supplier_material sm WHERE sm.supplier_code = s.code) AS supplied,
      (SELECT count(DISTINCT l.material_code)::int FROM bom_line l JOIN supplier_material sm ON sm.supplier_code = l.supplier_code AND sm.material_code = l.material_code WHERE l.supplier_code = s.code) AS "withBom",
      coalesce(b."lineCount", 0) AS "lineCount", coalesce(b."vendorCount", 0) AS "vendorCount", b."updatedAt"`,
    from: Prisma.sql`supplier s LEFT JOIN (
      SELECT supplier_code, count(*)::int AS "lineCount", count(DISTINCT vendor_credit_code)::int AS "vendorCount", max(updated_at) AS "updatedAt"
      FROM bom_line GROUP BY supplier_code) b ON b.supplier_code = s.code`,
    where: whereSql([keywordSql(['s.code', 's.name'], q.keyword)]),
    orderBy: orderBySql(SUPPLIER_SORT, q, 's.code', '"lineCount" DESC, s.code'),
  });
}

/** Whether a supplier exists (the manufacturer's views refuse an unknown one with 404). */
export async function requireSupplier(db: Db, code: string): Promise<void> {
  if (!(await db.supplier.findUnique({ where: { code }, select: { code: true } }))) throw notFound('供应商不存在');
}

const WHERE_USED_SORT = {
  supplierCode: 'l.supplier_code',
  materialCode: 'l.material_code',
  componentCode: 'l.component_code',
  vendorName: 'l.vendor_name',
} as const;

/** Lines of every supplier whose vendor (name or credit code) and/or component (code or name) match. */
export async function whereUsed(
  db: Db,
  q: z.output<typeof ZWhereUsedRequestSchema>,
): Promise<{ rows: WhereUsedRow[] } & CappedTotal> {
  const page = await listPage<WhereUsedRow>(db, q, {
    select: Prisma.sql`l.id, l.supplier_code AS "supplierCode", coalesce(s.name, l.supplier_code) AS "supplierName", l.material_code AS "materialCode",
      coalesce(m.name, l.material_code) AS "materialName", l.level, l.parent_code AS "parentCode", l.component_code AS "componentCode",
      l.component_name AS "componentName", l.quantity::float8 AS quantity, (l.quantity * coalesce(p.quantity, 1))::float8 AS "extendedQuantity",
      l.unit, l.vendor_name AS "vendorName", l.vendor_credit_code AS "vendorCreditCode", l.vendor_region AS "vendorRegion"`,
    from: Prisma.sql`bom_line l LEFT JOIN bom_line p ON p.id = l.parent_id LEFT JOIN supplier s ON s.code = l.supplier_code LEFT JOIN material m ON m.code = l.material_code`,
    where: whereSql([
      keywordSql(['l.vendor_name', 'l.vendor_credit_code'], q.vendor),
      keywordSql(['l.component_code', 'l.component_name'], q.component),
    ]),
    orderBy: orderBySql(WHERE_USED_SORT, q, 'l.id', 'l.supplier_code, l.material_code, l.level, l.id'),
  });
  return mapPage(page, (r) => ({ ...r, extendedQuantity: extended(r.extendedQuantity) }));
}

// ---- line moves --------------------------------------------------------------------------------------------

type AddInput = z.output<typeof ZAddBomLineRequestSchema>;
type UpdateInput = z.output<typeof ZUpdateBomLineRequestSchema>;

const fieldError = (field: string, message: string) => badRequest(message, [{ field, message }]);

const lineData = (f: Omit<AddInput, 'materialCode' | 'parentId'>) => ({
  componentCode: f.componentCode,
  componentName: f.componentName,
  spec: f.spec ?? null,
  quantity: new Prisma.Decimal(f.quantity),
  unit: f.unit,
  hasDrawing: f.hasDrawing,
  vendorName: f.vendorName,
  vendorCreditCode: f.vendorCreditCode,
  vendorRegion: f.vendorRegion ?? null,
  vendorContact: f.vendorContact ?? null,
  vendorMobile: f.vendorMobile ?? null,
});

/** Serializes the changes of one supplier's material (imports and line moves). */
export const lockMaterial = (tx: Tx, supplierCode: string, materialCode: string) =>
  tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`bom:${supplierCode}:${materialCode}`}))`;

/** A component code once per parent: 409, as a double submit of the same line is. */
const duplicate = (parentCode: string, code: string, materialCode: string) =>
  conflict(
    parentCode === materialCode
      ? `一级物料 ${materialCode} 下已有子件 ${code}`
      : `上级 ${parentCode} 下已有子件 ${code}`,
  );

function onUniqueViolation(e: unknown): never {
  if ((e as { code?: string }).code === 'P2002')
    throw conflict('同一上级下已有该子件编码（可能刚被其他人添加），请刷新后重试');
  throw e;
}

async function lineRow(tx: Tx | Db, id: number) {
  const [row] = await readRows<LineRow>(
    tx as Db,
    Prisma.sql`SELECT ${LINE_COLUMNS}, true AS matched FROM bom_line l WHERE l.id = ${id}`,
  );
  const parent = row?.parentId
    ? await tx.bomLine.findUnique({ where: { id: row.parentId }, select: { quantity: true } })
    : null;
  return lineOut(row!, parent ? Number(parent.quantity) : undefined);
}

async function event(
  tx: Tx,
  supplierCode: string,
  materialCode: string,
  action: 'IMPORT' | 'ADD' | 'UPDATE' | 'DELETE',
  actor: Actor,
  counts: { removed?: number; written?: number },
  detail: string,
) {
  await tx.bomEvent.create({
    data: {
      supplierCode,
      materialCode,
      action,
      removed: counts.removed ?? 0,
      written: counts.written ?? 0,
      detail: detail.slice(0, 500),
      userId: actor.id,
      userAccount: actor.account,
      userName: actor.name,
    },
  });
}

/** Adds a line under the material (level 2) or under one of its level-2 lines (level 3). */
export async function addLine(db: Db, supplierCode: string, actor: Actor, input: AddInput): Promise<BomLine> {
  const supplied = await db.supplierMaterial.findUnique({
    where: { supplierCode_materialCode: { supplierCode, materialCode: input.materialCode } },
  });
  if (!supplied) throw fieldError('materialCode', `物料 ${input.materialCode} 不是本供应商供货的物料`);
  const id = await db
    .$transaction(async (tx) => {
      await lockMaterial(tx, supplierCode, input.materialCode);
      let parentCode = input.materialCode;
      let level = 2;
      if (input.parentId !== undefined) {
        const parent = await tx.bomLine.findFirst({
          where: { id: input.parentId, supplierCode, materialCode: input.materialCode },
        });
        if (!parent) throw notFound('上级子件不存在');
        if (parent.level >= 3) throw fieldError('parentId', '三级子件下不能再添加子件（BOM 最多三级）');
        parentCode = parent.componentCode;
        level = 3;
      }
      if (input.componentCode === input.materialCode)
        throw fieldError('componentCode', `子件编码不能与一级物料编码 ${input.materialCode} 相同（循环引用）`);
      if (input.componentCode === parentCode)
        throw fieldError('componentCode', `子件 ${parentCode} 不能以自身为上级（循环引用）`);
      const taken = await tx.bomLine.findFirst({
        where: { supplierCode, materialCode: input.materialCode, parentCode, componentCode: input.componentCode },
        select: { id: true },
      });
      if (taken) throw duplicate(parentCode, input.componentCode, input.materialCode);
      const last = await tx.bomLine.aggregate({
        where: { supplierCode, materialCode: input.materialCode, parentCode },
        _max: { sortNo: true },
      });
      const created = await tx.bomLine.create({
        data: {
          supplierCode,
          materialCode: input.materialCode,
          parentId: input.parentId ?? null,
          parentCode,
          level,
          sortNo: (last._max.sortNo ?? 0) + 1,
          updatedBy: actor.name,
          ...lineData(input),
        },
        select: { id: true },
      });
      await event(
        tx,
        supplierCode,
        input.materialCode,
        'ADD',
        actor,
        { written: 1 },
        `新增${level === 2 ? '二' : '三'}级子件 ${input.componentCode}（上级 ${parentCode}）`,
      );
      return created.id;
    })
    .catch(onUniqueViolation);
  return lineRow(db, id);
}

/** Changes a line's fields; a level-2 line's new code is carried to its children's parent code. */
export async function updateLine(db: Db, supplierCode: string, actor: Actor, input: UpdateInput): Promise<BomLine> {
  const { id, ...fields } = input;
  await db
    .$transaction(async (tx) => {
      const found = await tx.bomLine.findFirst({ where: { id, supplierCode }, select: { materialCode: true } });
      if (!found) throw notFound(LINE_NOT_FOUND);
      await lockMaterial(tx, supplierCode, found.materialCode);
      const line = await tx.bomLine.findFirst({ where: { id, supplierCode } });
      if (!line) throw notFound(LINE_NOT_FOUND);
      const code = fields.componentCode;
      if (code !== line.componentCode) {
        if (code === line.materialCode)
          throw fieldError('componentCode', `子件编码不能与一级物料编码 ${line.materialCode} 相同（循环引用）`);
        if (code === line.parentCode)
          throw fieldError('componentCode', `子件 ${line.parentCode} 不能以自身为上级（循环引用）`);
        if (
          line.level === 2 &&
          (await tx.bomLine.findFirst({ where: { parentId: line.id, componentCode: code }, select: { id: true } }))
        ) {
          throw fieldError('componentCode', `子件 ${code} 已是它的三级子件，不能再作为它自身的编码（循环引用）`);
        }
        const taken = await tx.bomLine.findFirst({
          where: { supplierCode, materialCode: line.materialCode, parentCode: line.parentCode, componentCode: code },
          select: { id: true },
        });
        if (taken) throw duplicate(line.parentCode, code, line.materialCode);
        if (line.level === 2) await tx.bomLine.updateMany({ where: { parentId: line.id }, data: { parentCode: code } });
      }
      // the form never holds the full mobile (responses mask it): left blank, it stays as it was
      await tx.bomLine.update({
        where: { id },
        data: { ...lineData(fields), vendorMobile: fields.vendorMobile ?? line.vendorMobile, updatedBy: actor.name },
      });
      await event(
        tx,
        supplierCode,
        line.materialCode,
        'UPDATE',
        actor,
        { written: 1 },
        `修改子件 ${line.componentCode}${code !== line.componentCode ? ` → ${code}` : ''}`,
      );
    })
    .catch(onUniqueViolation);
  return lineRow(db, id);
}

/** Deletes a line and, for a level-2 line, its level-3 lines; says how many went. */
export async function deleteLine(db: Db, supplierCode: string, actor: Actor, id: number): Promise<number> {
  return db.$transaction(async (tx) => {
    const found = await tx.bomLine.findFirst({ where: { id, supplierCode }, select: { materialCode: true } });
    if (!found) throw notFound(LINE_NOT_FOUND);
    await lockMaterial(tx, supplierCode, found.materialCode);
    const line = await tx.bomLine.findFirst({ where: { id, supplierCode } });
    // a concurrent delete got there first
    if (!line) throw conflict('该行已被删除，请刷新');
    const children = await tx.bomLine.count({ where: { parentId: id } });
    await tx.bomLine.delete({ where: { id } });
    await event(
      tx,
      supplierCode,
      line.materialCode,
      'DELETE',
      actor,
      { removed: children + 1 },
      `删除子件 ${line.componentCode}${children ? `及其 ${children} 个三级子件` : ''}`,
    );
    return children + 1;
  });
}
