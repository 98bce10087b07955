/**
 * Button and column permissions (the legacy portal's menuBtnPermission/*, button/*).
 *
 * A page declares its buttons and governed columns in PAGES (pages.ts); a call names the button it
 * performs (`button: PAGES.x.buttons.export` on `endpoint()`), a row schema the columns it carries
 * (`governedColumns(PAGES.x, ['ip'])`, used as `columns:` on the calls that answer those rows). The server seeds a default row for each
 * declaration (a button: the call's `access`; a column: visible to every type) and enforces the
 * rows: a refused button is a 403 naming the action; a hidden column is dropped and a masked one
 * masked in list, detail and Excel alike (`applyColumnModes`). The 按钮与列权限 page (type 7)
 * edits the rows; every change is written to the append-only permission change log.
 */
import { z } from 'zod';
import { USER_TYPES } from './codes.ts';
import { endpoint, type FactPlace } from './endpoint.ts';
import { ZCappedPage, ZEnvelope } from './envelope.ts';
import { INT4_MAX, zId, zOptionalDate, zOptionalEnum, zOptionalText, zText, withDateRange } from './fields.ts';
import { ZPageRequest } from './paging.ts';

const tag = 'permissions';

/** Who administers the permissions (type 7, internal plus SQE / product-line management). */
export const PERMISSION_ADMIN_TYPES = [7] as const;
import { PERMISSION_PAGE } from './page-paths.ts';
import { PAGES } from './pages.ts';
import { BASE_PATH } from './routes.ts';
export { PERMISSION_PAGE };

export const PERMISSION_KIND_LABELS = { BUTTON: '按钮', COLUMN: '列' } as const;
export type PermissionKind = keyof typeof PERMISSION_KIND_LABELS;
export const PERMISSION_KINDS = Object.keys(PERMISSION_KIND_LABELS) as [PermissionKind, ...PermissionKind[]];

/** What a user type gets of a governed column. */
export const COLUMN_MODE_LABELS = { VISIBLE: '可见', MASKED: '脱敏', HIDDEN: '隐藏' } as const;
export type ColumnMode = keyof typeof COLUMN_MODE_LABELS;
export const COLUMN_MODES = Object.keys(COLUMN_MODE_LABELS) as [ColumnMode, ...ColumnMode[]];

export const PERMISSION_ACTION_LABELS = { INSERT: '新增', UPDATE: '修改', DELETE: '删除' } as const;
export type PermissionAction = keyof typeof PERMISSION_ACTION_LABELS;
export const PERMISSION_ACTIONS = Object.keys(PERMISSION_ACTION_LABELS) as [PermissionAction, ...PermissionAction[]];

// ---- the rule, shared by the server's responses, its exports and the web -------------------------

/** A masked text keeps its first character: 张伟 → 张*, demo3 → d****. */
export function maskText(value: string): string {
  const chars = [...value];
  if (chars.length <= 1) return '*';
  return chars[0] + '*'.repeat(Math.min(chars.length - 1, 4));
}

/** A mobile number as every response carries it: 13812345678 → 138****5678. */
export function maskMobile(mobile: string): string {
  const digits = mobile.trim();
  if (digits.length < 7) return '*'.repeat(digits.length);
  return `${digits.slice(0, 3)}****${digits.slice(-4)}`;
}

export type ColumnModes = Readonly<Record<string, ColumnMode>>;

/**
 * One row as the caller may see it: hidden fields removed, masked ones masked. Fields the modes
 * do not name pass unchanged. The list, the detail and the Excel export all go through this.
 * A field may be a path into the row's nested lists (`events.ip`: the `ip` of every entry of
 * `events`; `rounds.signatures.ip` one level deeper): an audit trail inside a detail is governed
 * like a column of its own.
 */
export function applyColumnModes<R extends Record<string, unknown>>(row: R, modes: ColumnModes): R {
  let out: Record<string, unknown> = row;
  for (const [field, mode] of Object.entries(modes)) if (mode !== 'VISIBLE') out = applyMode(out, field, mode);
  return out as R;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => Boolean(v) && typeof v === 'object' && !Array.isArray(v);

/** A path's segments: fields, and `[key=a|b]` filters (see FactPlace). */
const segmentsOf = (path: string) => path.split('.');

/**
 * `row` with `leaf(object, field)` applied at `path` (a copy when anything changes; the row itself
 * otherwise). A field holding a list applies the rest of the path to each entry, one holding an
 * object to that object; a filter segment goes on only for the objects it keeps.
 */
function updateAt(row: Obj, path: readonly string[], leaf: (o: Obj, field: string) => Obj): Obj {
  const [seg = '', ...rest] = path;
  const filter = /^\[(\w+)=([^\]]*)\]$/.exec(seg);
  if (filter) return filter[2]!.split('|').includes(String(row[filter[1]!])) ? updateAt(row, rest, leaf) : row;
  if (!(seg in row)) return row;
  if (rest.length === 0) return leaf(row, seg);
  const v = row[seg];
  const into = (e: unknown) => (isObj(e) ? updateAt(e, rest, leaf) : e);
  if (Array.isArray(v)) return { ...row, [seg]: v.map(into) };
  if (isObj(v)) return { ...row, [seg]: into(v) };
  return row;
}

/** The texts found at `path` (lists flattened, filters applied). */
function textsAt(row: Obj, path: readonly string[]): string[] {
  const [seg = '', ...rest] = path;
  const filter = /^\[(\w+)=([^\]]*)\]$/.exec(seg);
  if (filter) return filter[2]!.split('|').includes(String(row[filter[1]!])) ? textsAt(row, rest) : [];
  const v = row[seg];
  const at = (x: unknown): string[] => {
    if (Array.isArray(x)) return x.flatMap(at);
    if (rest.length === 0) return typeof x === 'string' || typeof x === 'number' ? [String(x)] : [];
    return isObj(x) ? textsAt(x, rest) : [];
  };
  return at(v);
}

const maskValue = (v: unknown): unknown =>
  v === null || v === undefined ? v : Array.isArray(v) ? v.map(maskValue) : maskText(String(v));

/**
 * `row` with the field at `path` hidden or masked. A value that is no text (an id that resolves
 * to the person) cannot be masked in part: masked, it is left out like a hidden one.
 */
function applyMode(row: Obj, path: string, mode: Exclude<ColumnMode, 'VISIBLE'>): Obj {
  return updateAt(row, segmentsOf(path), (o, field) => {
    const out = { ...o };
    const v = o[field];
    if (mode === 'HIDDEN' || typeof v === 'number' || typeof v === 'boolean') delete out[field];
    else out[field] = maskValue(v);
    return out;
  });
}

const STRICTNESS: Record<ColumnMode, number> = { VISIBLE: 0, MASKED: 1, HIDDEN: 2 };

/**
 * The modes of a set's columns with the places that carry their facts (`companions`, the path
 * places of `appears`) added — each place the strictest mode of the columns it carries. An
 * export names its sheet columns by these fields, so a sheet hides what the answer hides.
 */
export function placeModes(
  set: {
    readonly companions?: Readonly<Record<string, readonly string[]>>;
    readonly appears?: Readonly<Record<string, readonly FactPlace[]>>;
  },
  modes: ColumnModes,
): ColumnModes {
  const out: Record<string, ColumnMode> = { ...modes };
  const add = (place: string, mode: ColumnMode | undefined) => {
    if (mode && STRICTNESS[mode] > STRICTNESS[out[place] ?? 'VISIBLE']) out[place] = mode;
  };
  for (const [field, others] of Object.entries(set.companions ?? {})) for (const o of others) add(o, modes[field]);
  for (const [field, places] of Object.entries(set.appears ?? {}))
    for (const p of places) if (typeof p === 'string') add(p, modes[field]);
  return out;
}

/** What a name becomes inside a text when its column is hidden. */
export const REDACTED_NAME_TEXT = '（已隐藏）';

/** `row` with every one of `names` replaced inside the texts at `path`. */
function redactAt(row: Obj, path: string, names: readonly string[], mode: Exclude<ColumnMode, 'VISIBLE'>): Obj {
  // longest first, so that a name inside a longer one does not leave the longer one's rest
  const sorted = [...new Set(names)].filter((n) => n.trim().length > 0).sort((a, b) => b.length - a.length);
  if (sorted.length === 0) return row;
  return updateAt(row, segmentsOf(path), (o, field) => {
    const v = o[field];
    if (typeof v !== 'string') return o;
    let text = v;
    for (const n of sorted) text = text.split(n).join(mode === 'HIDDEN' ? REDACTED_NAME_TEXT : maskText(n));
    return text === v ? o : { ...o, [field]: text };
  });
}

/**
 * A row of a governed set as the caller may see it — the one place where column permissions
 * are applied, for lists, details, nested lists and exports alike: `applyColumnModes` on the
 * set's columns; then every other place the set declares a column's fact to appear
 * (`companions`, `appears`: paths and texts naming it) takes that column's mode; and the
 * audit-trail entries that repeat a governed value (`echoes`) get that field's mode on their
 * `detail` (hidden: null). The names a text is redacted of are read off the row before anything
 * is dropped.
 */
export function applyColumnSet<R extends Record<string, unknown>>(
  row: R,
  set: {
    readonly echoes?: Readonly<Record<string, string>>;
    readonly companions?: Readonly<Record<string, readonly string[]>>;
    readonly appears?: Readonly<Record<string, readonly FactPlace[]>>;
  },
  modes: ColumnModes,
): R {
  const governed = (field: string) => {
    const mode = modes[field];
    return mode && mode !== 'VISIBLE' ? mode : undefined;
  };
  const redactions: { path: string; names: string[]; mode: Exclude<ColumnMode, 'VISIBLE'> }[] = [];
  for (const [field, places] of Object.entries(set.appears ?? {})) {
    const mode = governed(field);
    if (!mode) continue;
    for (const p of places)
      if (typeof p !== 'string')
        redactions.push({ path: p.redact, names: p.names.flatMap((n) => textsAt(row, segmentsOf(n))), mode });
  }
  let out: Obj = applyColumnModes(row, modes);
  for (const [field, others] of Object.entries(set.companions ?? {})) {
    const mode = governed(field);
    if (mode) for (const other of others) out = applyMode(out, other, mode);
  }
  for (const [field, places] of Object.entries(set.appears ?? {})) {
    const mode = governed(field);
    if (mode) for (const p of places) if (typeof p === 'string') out = applyMode(out, p, mode);
  }
  for (const r of redactions) out = redactAt(out, r.path, r.names, r.mode);
  const events = out.events;
  if (!set.echoes || !Array.isArray(events)) return out as R;
  const byAction = new Map<string, ColumnMode>();
  for (const [field, action] of Object.entries(set.echoes)) if (governed(field)) byAction.set(action, modes[field]!);
  if (byAction.size === 0) return out as R;
  const echoed = events.map((e: unknown) => {
    if (!e || typeof e !== 'object') return e;
    const ev = e as { action?: unknown; detail?: unknown };
    const mode = typeof ev.action === 'string' ? byAction.get(ev.action) : undefined;
    if (!mode || ev.detail === null || ev.detail === undefined) return e;
    return { ...ev, detail: mode === 'HIDDEN' ? null : maskText(String(ev.detail)) };
  });
  return { ...out, events: echoed } as unknown as R;
}

/**
 * A message (a refusal's text) that names a governed column's fact — "该问题已由 刘洋 处理":
 * `page` and `column` the column, `names` the values it names, `withoutName` the same said
 * without them. Applied to the refusals of that page's calls (their `columns` or `button` page).
 */
export interface NamedFact {
  readonly page: string;
  readonly column: string;
  readonly names: readonly string[];
  readonly withoutName: string;
}

/** `message` as the caller may read it: without the names when their column is hidden, masked when masked. */
export function namedMessage(message: string, named: NamedFact, modes: ColumnModes): string {
  const mode = modes[named.column];
  if (mode === 'HIDDEN') return named.withoutName;
  if (mode !== 'MASKED') return message;
  let text = message;
  for (const n of [...named.names].filter((x) => x.trim()).sort((a, b) => b.length - a.length))
    text = text.split(n).join(maskText(n));
  return text;
}

/** The mode of a column row for a user type. */
export function columnModeOf(
  item: { allowedTypes: readonly number[]; maskedTypes: readonly number[] },
  type: number,
): ColumnMode {
  if (item.allowedTypes.includes(type)) return 'VISIBLE';
  if (item.maskedTypes.includes(type)) return 'MASKED';
  return 'HIDDEN';
}

/** The 403 of a refused button. */
export const buttonRefusedText = (label: string) => `您没有"${label}"的权限，请联系管理员`;

// ---- what a page may use -------------------------------------------------------------------------

const zPage = zText('页面', 200, { verb: '缺少' });
export const ZPageRequestSchema = z.object({ page: zPage });

export const ZPageButton = z.object({ code: z.string(), label: z.string(), allowed: z.boolean() });
export type PageButton = z.infer<typeof ZPageButton>;
export const ZPageButtons = z.object({ page: z.string(), buttons: z.array(ZPageButton) });
export type PageButtons = z.infer<typeof ZPageButtons>;

export const ZPageColumn = z.object({ field: z.string(), label: z.string(), mode: z.enum(COLUMN_MODES) });
export type PageColumn = z.infer<typeof ZPageColumn>;
export const ZPageColumns = z.object({ page: z.string(), columns: z.array(ZPageColumn) });
export type PageColumns = z.infer<typeof ZPageColumns>;

// ---- administration ------------------------------------------------------------------------------

const zTypes = z
  .array(
    z
      .number({ error: '用户类型为 2 到 9' })
      .int('用户类型为 2 到 9')
      .refine((t) => (USER_TYPES as readonly number[]).includes(t), '用户类型为 2 到 9'),
    { error: '请选择用户类型' },
  )
  .max(USER_TYPES.length, '用户类型重复')
  .refine((a) => new Set(a).size === a.length, '用户类型重复');

export const ZPermissionItem = z.object({
  id: z.number().int(),
  kind: z.enum(PERMISSION_KINDS),
  page: z.string(),
  code: z.string(),
  label: z.string(),
  /** Buttons: the types that may use it. Columns: the types that see it in full. */
  allowedTypes: z.array(z.number().int()),
  /** Columns only: the types that see it masked (the others: hidden). */
  maskedTypes: z.array(z.number().int()),
  /** Declared by a call or a row schema (deleting it restores the declaration's default). */
  declared: z.boolean(),
  version: z.number().int(),
  updatedAt: z.string(),
});
export type PermissionItem = z.infer<typeof ZPermissionItem>;

export const PERMISSION_SORT_FIELDS = ['page', 'code', 'kind', 'updatedAt'] as const;
export const ZPermissionPageRequestSchema = ZPageRequest(PERMISSION_SORT_FIELDS, {
  kind: zOptionalEnum(PERMISSION_KINDS, '类型只能是 BUTTON 或 COLUMN'),
  /** The menu page (route); `page` is the paging's. */
  menuPage: zOptionalText(200),
  /** Matches code or label. */
  keyword: zOptionalText(100),
});
export type PermissionPageRequest = z.input<typeof ZPermissionPageRequestSchema>;

const itemRules = <S extends z.ZodType<{ kind?: PermissionKind; allowedTypes: number[]; maskedTypes: number[] }>>(
  schema: S,
) =>
  schema
    .refine((v) => v.kind !== 'BUTTON' || v.maskedTypes.length === 0, {
      message: '按钮没有脱敏，只能选择允许的用户类型',
      path: ['maskedTypes'],
    })
    .refine((v) => !v.maskedTypes.some((t) => v.allowedTypes.includes(t)), {
      message: '同一用户类型不能既可见又脱敏',
      path: ['maskedTypes'],
    });

export const ZPermissionInsertSchema = itemRules(
  z.object({
    kind: z.enum(PERMISSION_KINDS, { error: '请选择类型' }),
    page: zText('页面', 200).pipe(
      z.string().regex(/^\/esm\/[\w/]+$/, `页面为 ${BASE_PATH}/ 开头的路由，如 ${PAGES.dashboard.path}`),
    ),
    code: zText('编码', 64).pipe(z.string().regex(/^[A-Za-z][\w.-]*$/, '编码以字母开头，只能包含字母、数字和 _ . -')),
    label: zText('名称', 100),
    allowedTypes: zTypes,
    maskedTypes: zTypes.default([]),
  }),
);
export type PermissionInsert = z.input<typeof ZPermissionInsertSchema>;

export const ZPermissionUpdateSchema = itemRules(
  z.object({
    id: zId('权限编号'),
    /** The version the editor saw: a change made meanwhile by someone else answers 409. */
    version: z.number({ error: '缺少版本号' }).int('版本号无效').min(0, '版本号无效').max(INT4_MAX, '版本号无效'),
    label: zText('名称', 100),
    allowedTypes: zTypes,
    maskedTypes: zTypes.default([]),
  }),
);
export type PermissionUpdate = z.input<typeof ZPermissionUpdateSchema>;

export const ZPermissionIdSchema = z.object({ id: zId('权限编号') });
export const ZPermissionIdsSchema = z.object({
  ids: z
    .array(zId('权限编号'), { error: '请选择要删除的权限' })
    .min(1, '请选择要删除的权限')
    .max(200, '一次最多删除 200 条'),
});

export const ZPermissionListRequestSchema = z.object({
  menuPage: zOptionalText(200),
  kind: zOptionalEnum(PERMISSION_KINDS, '类型只能是 BUTTON 或 COLUMN'),
});

/** One change: who, when, before → after (append-only). */
export const ZPermissionChangeRow = z.object({
  id: z.number().int(),
  action: z.enum(PERMISSION_ACTIONS),
  kind: z.enum(PERMISSION_KINDS),
  page: z.string(),
  code: z.string(),
  label: z.string(),
  before: z.string().nullable(),
  after: z.string().nullable(),
  userAccount: z.string(),
  userName: z.string(),
  ip: z.string().nullable(),
  createdAt: z.string(),
});
export type PermissionChangeRow = z.infer<typeof ZPermissionChangeRow>;
export const ZPermissionChangeRequestSchema = withDateRange(
  ZPageRequest(['createdAt'], {
    menuPage: zOptionalText(200),
    /** Matches code, label, account or name. */
    keyword: zOptionalText(100),
    action: zOptionalEnum(PERMISSION_ACTIONS, '操作只能是 INSERT、UPDATE 或 DELETE'),
    dateFrom: zOptionalDate,
    dateTo: zOptionalDate,
  }),
);

// ---- calls -------------------------------------------------------------------------------------

const admin = PERMISSION_ADMIN_TYPES;

export const permissionsApi = {
  buttons: endpoint({
    path: 'menuBtnPermission/selectBtnPermission',
    access: USER_TYPES,
    tag,
    summary: '当前用户在某页面可用的按钮',
    body: ZPageRequestSchema,
    response: ZEnvelope(ZPageButtons),
  }),
  columns: endpoint({
    path: 'menuBtnPermission/hasColPermission',
    access: USER_TYPES,
    tag,
    summary: '当前用户在某页面可见、脱敏与隐藏的列',
    body: ZPageRequestSchema,
    response: ZEnvelope(ZPageColumns),
  }),
  page: endpoint({
    path: 'button/findButtonPage',
    access: admin,
    tag,
    summary: '按钮与列权限分页（可按页面、类型、关键字筛选）',
    body: ZPermissionPageRequestSchema,
    response: ZCappedPage(ZPermissionItem),
  }),
  list: endpoint({
    path: 'button/list',
    access: admin,
    tag,
    summary: '某页面（或全部）的按钮与列权限',
    body: ZPermissionListRequestSchema,
    response: ZEnvelope(z.array(ZPermissionItem)),
  }),
  insert: endpoint({
    path: 'button/insert',
    access: admin,
    tag,
    summary: '新增按钮或列权限（页面 + 编码不可重复）',
    body: ZPermissionInsertSchema,
    response: ZEnvelope(ZPermissionItem),
  }),
  update: endpoint({
    path: 'button/update',
    access: admin,
    tag,
    summary: '修改名称与各用户类型的权限（他人已修改时返回 409）',
    body: ZPermissionUpdateSchema,
    response: ZEnvelope(ZPermissionItem),
  }),
  deleteById: endpoint({
    path: 'button/deleteById',
    access: admin,
    tag,
    summary: '删除一条权限（声明的按钮与列恢复默认）',
    body: ZPermissionIdSchema,
    response: ZEnvelope(z.object({ deleted: z.number().int() })),
  }),
  deleteByIds: endpoint({
    path: 'button/deleteByIds',
    access: admin,
    tag,
    summary: '批量删除权限',
    body: ZPermissionIdsSchema,
    response: ZEnvelope(z.object({ deleted: z.number().int() })),
  }),
  changes: endpoint({
    path: 'button/findChangeLog',
    access: admin,
    tag,
    summary: '权限变更记录（谁、何时、修改前 → 修改后）',
    body: ZPermissionChangeRequestSchema,
    response: ZCappedPage(ZPermissionChangeRow),
  }),
} as const;
