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
 * One file per sub-resource: the rule itself in rule.ts, the calls in calls.ts.
 */
export * from './labels.ts';
export * from './rule.ts';
export * from './page.ts';
export * from './items.ts';
export * from './changes.ts';
export * from './calls.ts';
