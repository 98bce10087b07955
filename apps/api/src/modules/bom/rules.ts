/**
 * The BOM's rules, pure (no database): an import file's rows checked as a whole — each field,
 * the level-1 material is one the supplier supplies, at most three levels, no cycles, a
 * component code once per parent — every refusal naming its row and column; and what the
 * responses show of a line (the masked mobile, the extended quantity).
 */
import { BOM_COLUMN_HEADERS, BOM_COLUMNS, ZBomLineFieldsSchema, type BomColumnKey } from '@esm/contracts';
import type { z } from 'zod';

type LineFields = z.output<typeof ZBomLineFieldsSchema>;

/** A row as read from the file: its number in the sheet and its cells as text. */
export interface SheetRow {
  rowNo: number;
  cells: Partial<Record<BomColumnKey, string>>;
}

export interface RowError {
  rowNo: number;
  column: string;
  message: string;
}

/** A checked row, placed: its material, its parent's code and its level. */
export interface PlannedLine extends LineFields {
  rowNo: number;
  materialCode: string;
  parentCode: string;
  level: 2 | 3;
}

export interface ImportPlan {
  /** Per level-1 material, in the file's order: level-2 lines, each followed by its level-3 lines. */
  materials: Map<string, PlannedLine[]>;
  lines: number;
}

const YES = new Set(['是', 'y', 'yes', 'true', '1', '有']);
const NO = new Set(['否', 'n', 'no', 'false', '0', '无', '']);

/** The error list's field: "第 N 行 列名" (the row 1 is the header). */
export const errorField = (e: RowError) => (e.rowNo > 0 ? `第 ${e.rowNo} 行 ${e.column}` : e.column);

/** Which of the expected headers are missing from the first row. */
export function missingHeaders(found: readonly string[]): string[] {
  const have = new Set(found.map((h) => h.trim()));
  return BOM_COLUMNS.filter((c) => c.required && !have.has(c.header)).map((c) => c.header);
}

/** One row's fields, each refusal on its column. */
function checkFields(row: SheetRow, errors: RowError[]): LineFields | null {
  const c = row.cells;
  const flag = (c.hasDrawing ?? '').trim().toLowerCase();
  let hasDrawing: boolean | undefined;
  if (YES.has(flag)) hasDrawing = true;
  else if (NO.has(flag)) hasDrawing = false;
  else errors.push({ rowNo: row.rowNo, column: BOM_COLUMN_HEADERS.hasDrawing, message: '是否有图纸只能填“是”或“否”' });
  const parsed = ZBomLineFieldsSchema.safeParse({
    componentCode: c.componentCode ?? '',
    componentName: c.componentName ?? '',
    spec: c.spec,
    quantity: c.quantity ?? '',
    unit: c.unit ?? '',
    hasDrawing: hasDrawing ?? false,
    vendorName: c.vendorName ?? '',
    vendorCreditCode: c.vendorCreditCode ?? '',
    vendorRegion: c.vendorRegion,
    vendorContact: c.vendorContact,
    vendorMobile: c.vendorMobile,
  });
  if (!parsed.success) {
    const seen = new Set<string>();
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0]) as BomColumnKey;
      if (seen.has(key)) continue;
      seen.add(key);
      errors.push({ rowNo: row.rowNo, column: BOM_COLUMN_HEADERS[key] ?? key, message: issue.message });
    }
    return null;
  }
  return hasDrawing === undefined ? null : parsed.data;
}

/**
 * Checks every row of an import and places each line. `supplied` are the codes of the materials
 * the supplier supplies. The plan is good only when no error came back.
 */
export function planImport(
  rows: readonly SheetRow[],
  supplied: ReadonlySet<string>,
): { errors: RowError[]; plan: ImportPlan } {
  const errors: RowError[] = [];
  const M = BOM_COLUMN_HEADERS;
  type Placed = LineFields & { rowNo: number; materialCode: string; parentCode: string };
  const byMaterial = new Map<string, Placed[]>();

  for (const row of rows) {
    const materialCode = (row.cells.materialCode ?? '').trim();
    const fields = checkFields(row, errors);
    if (!materialCode) {
      errors.push({ rowNo: row.rowNo, column: M.materialCode, message: '请输入一级物料编码' });
      continue;
    }
    if (!supplied.has(materialCode)) {
      errors.push({ rowNo: row.rowNo, column: M.materialCode, message: `物料 ${materialCode} 不是本供应商供货的物料` });
      continue;
    }
    if (!fields) continue;
    const parentCode = (row.cells.parentCode ?? '').trim() || materialCode;
    if (fields.componentCode === materialCode) {
      errors.push({
        rowNo: row.rowNo,
        column: M.componentCode,
        message: `子件编码不能与一级物料编码 ${materialCode} 相同（循环引用）`,
      });
      continue;
    }
    if (fields.componentCode === parentCode) {
      errors.push({
        rowNo: row.rowNo,
        column: M.parentCode,
        message: `子件 ${parentCode} 不能以自身为上级（循环引用）`,
      });
      continue;
    }
    const list = byMaterial.get(materialCode) ?? [];
    list.push({ ...fields, rowNo: row.rowNo, materialCode, parentCode });
    byMaterial.set(materialCode, list);
  }

  const materials = new Map<string, PlannedLine[]>();
  let lines = 0;
  for (const [materialCode, placed] of byMaterial) {
    // a component code once per parent
    const firstRow = new Map<string, number>();
    const unique: Placed[] = [];
    for (const p of placed) {
      const key = `${p.parentCode}\u0000${p.componentCode}`;
      const first = firstRow.get(key);
      if (first !== undefined) {
        const parent = p.parentCode === materialCode ? `一级物料 ${materialCode}` : `上级 ${p.parentCode}`;
        errors.push({
          rowNo: p.rowNo,
          column: M.componentCode,
          message: `子件编码 ${p.componentCode} 在${parent}下重复（与第 ${first} 行重复）`,
        });
        continue;
      }
      firstRow.set(key, p.rowNo);
      unique.push(p);
    }
    const level2 = new Map(unique.filter((p) => p.parentCode === materialCode).map((p) => [p.componentCode, p]));
    const anyByCode = new Map<string, Placed>();
    for (const p of unique) if (!anyByCode.has(p.componentCode)) anyByCode.set(p.componentCode, p);

    const ordered: PlannedLine[] = [];
    const childrenOf = new Map<string, PlannedLine[]>();
    for (const p of unique) {
      if (p.parentCode === materialCode) {
        ordered.push({ ...p, level: 2 });
        continue;
      }
      if (level2.has(p.parentCode)) {
        const list = childrenOf.get(p.parentCode) ?? [];
        list.push({ ...p, level: 3 });
        childrenOf.set(p.parentCode, list);
        continue;
      }
      errors.push({ rowNo: p.rowNo, column: M.parentCode, message: parentRefusal(p, materialCode, anyByCode) });
    }
    const out: PlannedLine[] = [];
    for (const l2 of ordered) out.push(l2, ...(childrenOf.get(l2.componentCode) ?? []));
    materials.set(materialCode, out);
    lines += out.length;
  }
  errors.sort((a, b) => a.rowNo - b.rowNo);
  return { errors, plan: { materials, lines } };
}

/** Why a line's parent is not a level-2 line of its material: a cycle, a fourth level, or absent. */
function parentRefusal(
  p: { componentCode: string; parentCode: string },
  materialCode: string,
  byCode: Map<string, { componentCode: string; parentCode: string }>,
): string {
  const chain = [p.componentCode, p.parentCode];
  let at = byCode.get(p.parentCode);
  if (!at) return `上级编码 ${p.parentCode} 不是物料 ${materialCode} 的二级子件（文件中没有这个子件）`;
  for (let i = 0; at && i < 10; i++) {
    if (at.parentCode === p.componentCode) return `循环引用：${[...chain, p.componentCode].join(' → ')}`;
    if (at.parentCode === materialCode) break;
    chain.push(at.parentCode);
    at = byCode.get(at.parentCode);
  }
  return `层级超过三级：上级 ${p.parentCode} 本身是三级子件，BOM 最多三级`;
}

/** 138****5678: the first three and the last four of a number, the rest hidden. */
export function maskMobile(mobile: string | null): string | null {
  if (!mobile) return null;
  const digits = mobile.replace(/\s/g, '');
  if (digits.length < 7) return '****';
  return `${digits.slice(0, 3)}****${digits.slice(-4)}`;
}

/** A product of quantities, to the 6 decimals a per-unit figure needs. */
export const extended = (...q: number[]) => Math.round(q.reduce((a, b) => a * b, 1) * 1e6) / 1e6;
