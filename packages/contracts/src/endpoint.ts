/**
 * Each call of the portal is declared ONCE, here in contracts: its path (the legacy portal's
 * name under /esm-server/api), who may call it, its request and its response. The api registers
 * a declaration with one helper (apps/api/src/lib/route.ts) and the web calls it with one typed
 * helper (apps/web/src/api/client.ts `call`): no path string or response type is written twice.
 */
import type { z } from 'zod';
import type { UserType } from './codes.ts';
import type { ButtonDecl, RouteDef } from './pages.ts';

/** 'public': anyone; 'session': any signed-in user; a list: only those user types. */
export type Access = 'public' | 'session' | readonly UserType[];

/**
 * What a call answers: `json` the envelope of `response`; `bytes` a file (a stamped drawing, an
 * .xlsx) whose failures still come back as the JSON envelope; `multipart` takes a form upload
 * and answers the envelope of `response`.
 */
export type EndpointKind = 'json' | 'bytes' | 'multipart';

export interface EndpointDef {
  /** the legacy portal's call name under /esm-server/api, no leading slash (e.g. `haier/standardFile/getStandardFilePager`). */
  readonly path: string;
  /** Who may call it. Required: a declaration without it does not type-check. */
  readonly access: Access;
  /** OpenAPI summary (Chinese, what the call does for its user). */
  readonly summary: string;
  readonly description?: string;
  /** OpenAPI tag: the domain name. */
  readonly tag: string;
  readonly kind?: EndpointKind;
  /** The JSON body (absent: the call takes no body, any body is ignored). */
  readonly body?: z.ZodType;
  /** The success envelope (json and multipart calls). */
  readonly response?: z.ZodType;
  /** Statuses other than 200 that answer with the same envelope schema (e.g. user/current's 401). */
  readonly alsoFor?: readonly number[];
  /**
   * The page button this call performs (`PAGES.x.buttons.code`, declared with its page): the server
   * refuses the call (403 naming the action) to a user type the button is not granted to, and the
   * web hides the button. Its default grant is `access`; the 按钮与列权限 page changes it.
   */
  readonly button?: ButtonDecl;
  /** The governed columns of the rows this call answers (list or detail): hidden ones dropped, masked ones masked. */
  readonly columns?: ColumnSetDecl;
}

/**
 * The governed columns of one row schema: some of its page's columns (field → header, as PAGES
 * declares them), made with `governedColumns` next to the row schema; their fields must be optional
 * strings there. A field may be a path into a nested list of the row (`events.ip`,
 * `rounds.signatures.ip`: see applyColumnModes), for the audit trails inside a detail.
 */
export interface ColumnSetDecl {
  readonly page: string;
  readonly columns: Readonly<Record<string, string>>;
  /**
   * A governed field whose value a row's audit trail repeats: field → the `action` of the
   * `events` entry whose `detail` is that value (e.g. a withdraw reason in the WITHDRAW event).
   * That detail gets the field's mode too, so the value does not leak through the trail.
   */
  readonly echoes?: Readonly<Record<string, string>>;
  /**
   * Fields of the row that carry the same fact as a governed field (the approver's account beside
   * the approver's name): field → those fields. They take the field's mode, so hiding 审批人 hides
   * the account as well. They are not columns of their own on the 按钮与列权限 page.
   */
  readonly companions?: Readonly<Record<string, readonly string[]>>;
  /**
   * Everywhere else in these rows a governed column's fact appears: column code (of any governed
   * column of the page, declared in this set or another) → its places (FactPlace). Each place
   * takes the column's mode, so a hidden or masked column is hidden or masked wherever its fact
   * appears in the page's calls — nested lists, audit trails, thread messages, the ids that
   * resolve to it. `applyColumnSet` is the one function that applies them.
   */
  readonly appears?: Readonly<Record<string, readonly FactPlace[]>>;
}

/**
 * Where a governed column's fact appears in a row besides the column itself:
 * - a path — `assigneeId`, `children.vendorContact`, `messages.[userType=5].userName`: the value
 *   there takes the column's mode (hidden: the field is left out; masked: masked). A
 *   `[key=a|b]` segment keeps to the objects (the row, or the entries of a nested list) whose
 *   `key` is one of those values: an audit trail's entries by action, a thread's messages by
 *   their author's user type.
 * - `{ redact, names }`: a text naming the fact (a thread message "分派给 刘洋"): every value found
 *   at the `names` paths, in the row as the server built it, is replaced inside the texts at
 *   `redact` — by （已隐藏） when the column is hidden, by its masked form (刘*) when masked. The
 *   rest of the text (the reason given for a reassignment …) stays.
 */
export type FactPlace = string | { readonly redact: string; readonly names: readonly string[] };

/**
 * The governed columns of a row schema: `fields`, some of the page's declared columns (their
 * headers are the page's), with where else their facts appear (see ColumnSetDecl).
 */
export function governedColumns<P extends RouteDef, const F extends keyof P['columns'] & string>(
  page: P,
  fields: readonly F[],
  echoes?: Partial<Record<F, string>>,
  companions?: Partial<Record<F, readonly string[]>>,
  appears?: Readonly<Record<string, readonly FactPlace[]>>,
): {
  readonly page: string;
  readonly columns: Readonly<Record<F, string>>;
  readonly echoes?: Readonly<Record<string, string>>;
  readonly companions?: Readonly<Record<string, readonly string[]>>;
  readonly appears?: Readonly<Record<string, readonly FactPlace[]>>;
} {
  return {
    page: page.path,
    columns: Object.fromEntries(fields.map((f) => [f, (page.columns as Record<string, string>)[f]])) as Record<
      F,
      string
    >,
    ...(echoes ? { echoes: echoes as Record<string, string> } : {}),
    ...(companions ? { companions: companions as Record<string, readonly string[]> } : {}),
    ...(appears ? { appears } : {}),
  };
}

/** Declares a call; `const` keeps the access list's literal types (the api narrows the handler by them). */
export function endpoint<const E extends EndpointDef>(e: E): E {
  return e;
}

/** The body a caller sends (before defaults and transforms). */
export type EndpointBody<E extends EndpointDef> = E['body'] extends z.ZodType
  ? z.input<E['body']>
  : Record<string, never> | undefined;
/** The body a handler receives (validated, defaults applied). */
export type EndpointParsedBody<E extends EndpointDef> = E['body'] extends z.ZodType ? z.output<E['body']> : undefined;
/** What the call answers (the envelope). */
export type EndpointResponse<E extends EndpointDef> = E['response'] extends z.ZodType ? z.output<E['response']> : never;
/** The `data` of what the call answers. */
export type EndpointData<E extends EndpointDef> = EndpointResponse<E> extends { data: infer D } ? D : never;
