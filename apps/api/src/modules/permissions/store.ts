/**
 * The permission table as the server enforces it: every row of permission_item, held
 * in memory and re-read after a change here or at most CACHE_TTL_MS after a change made by another
 * api process. What the routes declared (a call's `button`, its `columns`) is collected as they
 * are registered; the first read inserts the missing declarations with their defaults — a button:
 * the user types of its call's `access`; a column: visible to every type — so a domain added
 * later gets its rows by declaring them. A declaration without a row (deleted on the admin page)
 * falls back to the same default.
 */
import {
  USER_TYPES,
  columnModeOf,
  placeModes,
  type Access,
  type ButtonDecl,
  type ColumnModes,
  type ColumnSetDecl,
  type PageButton,
  type PageColumn,
  type PermissionKind,
} from '@esm/contracts';
import type { Db } from '../../db/database.ts';

/** Another process's change is seen within this long; this process's own at once. */
export const CACHE_TTL_MS = 10_000;

export interface Rule {
  kind: PermissionKind;
  page: string;
  code: string;
  label: string;
  allowedTypes: readonly number[];
  maskedTypes: readonly number[];
}

const keyOf = (kind: PermissionKind, page: string, code: string) => `${kind}\u0000${page}\u0000${code}`;

const typesOf = (access: Access): number[] =>
  access === 'public' || access === 'session' ? [...USER_TYPES] : [...access];

export class PermissionStore {
  /** Declared defaults by key, in declaration order. */
  private readonly declared = new Map<string, Rule>();
  private rules: Map<string, Rule> | null = null;
  private loadedAt = 0;
  private loading: Promise<Map<string, Rule>> | null = null;
  private seeded = false;
  /** columnModes' answers, for the rules they were computed from. */
  private modesOf: { rules: Map<string, Rule>; bySet: WeakMap<ColumnSetDecl, Map<number, ColumnModes>> } | null = null;

  constructor(private readonly db: Db) {}

  /** A call declares its button (default: the call's access). */
  declareButton(b: ButtonDecl, access: Access): void {
    this.modesOf = null;
    const key = keyOf('BUTTON', b.page, b.code);
    const had = this.declared.get(key);
    // two calls may share a button (e.g. one export for two sorts): its default is their union
    const allowed = new Set([...(had?.allowedTypes ?? []), ...typesOf(access)]);
    this.declared.set(key, {
      kind: 'BUTTON',
      page: b.page,
      code: b.code,
      label: b.label,
      allowedTypes: [...allowed].sort(),
      maskedTypes: [],
    });
  }

  /** A call declares the governed columns of its rows (default: visible to every type). */
  declareColumns(set: ColumnSetDecl): void {
    this.modesOf = null;
    for (const [field, label] of Object.entries(set.columns)) {
      const key = keyOf('COLUMN', set.page, field);
      if (!this.declared.has(key))
        this.declared.set(key, {
          kind: 'COLUMN',
          page: set.page,
          code: field,
          label,
          allowedTypes: [...USER_TYPES],
          maskedTypes: [],
        });
    }
  }

  isDeclared(kind: PermissionKind, page: string, code: string): boolean {
    return this.declared.has(keyOf(kind, page, code));
  }

  /** Drops the cache: the next check reads the table again (after a change through the admin page). */
  invalidate(): void {
    this.rules = null;
  }

  /** Writes the declared rows the table lacks, with their defaults (never overwrites an edited row). */
  async seedDeclared(): Promise<void> {
    await this.db.permissionItem.createMany({
      data: [...this.declared.values()].map((r) => ({
        ...r,
        allowedTypes: [...r.allowedTypes],
        maskedTypes: [...r.maskedTypes],
        declared: true,
      })),
      skipDuplicates: true,
    });
    this.seeded = true;
  }

  private async load(): Promise<Map<string, Rule>> {
    if (!this.seeded) await this.seedDeclared();
    const rows = await this.db.permissionItem.findMany({
      select: { kind: true, page: true, code: true, label: true, allowedTypes: true, maskedTypes: true },
    });
    const rules = new Map<string, Rule>();
    for (const r of rows)
      rules.set(keyOf(r.kind as PermissionKind, r.page, r.code), { ...r, kind: r.kind as PermissionKind });
    return rules;
  }

  private async current(): Promise<Map<string, Rule>> {
    if (this.rules && Date.now() - this.loadedAt < CACHE_TTL_MS) return this.rules;
    this.loading ??= this.load()
      .then((rules) => {
        this.rules = rules;
        this.loadedAt = Date.now();
        return rules;
      })
      .finally(() => {
        this.loading = null;
      });
    return this.loading;
  }

  private ruleOf(rules: Map<string, Rule>, kind: PermissionKind, page: string, code: string): Rule | undefined {
    const key = keyOf(kind, page, code);
    return rules.get(key) ?? this.declared.get(key);
  }

  async buttonAllowed(b: ButtonDecl, type: number): Promise<boolean> {
    const rule = this.ruleOf(await this.current(), 'BUTTON', b.page, b.code);
    return rule ? rule.allowedTypes.includes(type) : true;
  }

  /**
   * The governed columns of `set` as `type` gets them. Kept per set and type for as long as the
   * rules they were read from (a reload or an invalidation starts afresh), so a governed list pays
   * for them once, not on every call; frozen, as every caller shares them.
   */
  async columnModes(set: ColumnSetDecl, type: number): Promise<ColumnModes> {
    const rules = await this.current();
    if (this.modesOf?.rules !== rules) this.modesOf = { rules, bySet: new WeakMap() };
    let byType = this.modesOf.bySet.get(set);
    if (!byType) this.modesOf.bySet.set(set, (byType = new Map()));
    let modes = byType.get(type);
    if (!modes) byType.set(type, (modes = Object.freeze(this.modesFrom(rules, set, type))));
    return modes;
  }

  private modesFrom(rules: Map<string, Rule>, set: ColumnSetDecl, type: number): ColumnModes {
    const modes: Record<string, PageColumn['mode']> = {};
    // a set's own columns, and the page's columns whose fact appears in its rows too (ColumnSetDecl.appears)
    for (const field of new Set([...Object.keys(set.columns), ...Object.keys(set.appears ?? {})])) {
      const rule = this.ruleOf(rules, 'COLUMN', set.page, field);
      modes[field] = rule ? columnModeOf(rule, type) : 'VISIBLE';
    }
    // the places that carry a column's fact too: an export names its sheet columns by them
    return placeModes(set, modes);
  }

  /** Every rule of a page (rows, and declarations without a row), in a stable order. */
  private async pageRules(page: string, kind: PermissionKind): Promise<Rule[]> {
    const rules = await this.current();
    const out = new Map<string, Rule>();
    for (const [key, r] of this.declared) if (r.kind === kind && r.page === page) out.set(key, rules.get(key) ?? r);
    for (const [key, r] of rules) if (r.kind === kind && r.page === page) out.set(key, r);
    return [...out.values()];
  }

  async pageButtons(page: string, type: number): Promise<PageButton[]> {
    return (await this.pageRules(page, 'BUTTON')).map((r) => ({
      code: r.code,
      label: r.label,
      allowed: r.allowedTypes.includes(type),
    }));
  }

  async pageColumns(page: string, type: number): Promise<PageColumn[]> {
    return (await this.pageRules(page, 'COLUMN')).map((r) => ({
      field: r.code,
      label: r.label,
      mode: columnModeOf(r, type),
    }));
  }
}
