/**
 * The rule of governed columns and buttons, shared by the server's answers, its exports and the
 * web: masking, a row as the caller may see it (`applyColumnSet`), a refusal's text that names a
 * governed fact, a column row's mode for a user type, and a refused button's text.
 */
import type { FactPlace } from '../endpoint.ts';
import type { ColumnMode } from './labels.ts';

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
