/**
 * The permission table applied where the plugin's hooks cannot see:
 * - an Excel export's columns (the same rule as the list: `applyColumnModes`), and
 * - the actions a service offers the caller on a row (`actions` of a detail): an action whose page
 *   button the caller's type lacks is left out, as its route refuses it (403). One helper for every
 *   domain that serves such a list, so none of them can forget the table.
 */
import { maskText, type ButtonDecl, type ColumnModes } from '@esm/contracts';

/** An export column; `field`: the governed row field it shows (hidden or masked as in the list). */
export interface GovernedExportColumn<R> {
  header: string;
  width: number;
  field?: string;
  value: (r: R) => string | number;
}

/**
 * The columns a caller gets: a hidden column left out of the sheet, a masked one masked in every
 * row as `applyColumnModes` masks it (an empty cell stays empty). `field` may be a path
 * (`events.ip`) when the sheet's rows are a nested list of the governed answer.
 */
export function governExportColumns<R>(
  columns: readonly GovernedExportColumn<R>[],
  modes: ColumnModes,
): GovernedExportColumn<R>[] {
  return columns
    .filter((c) => !c.field || modes[c.field] !== 'HIDDEN')
    .map((c) => {
      if (!c.field || modes[c.field] !== 'MASKED') return c;
      return {
        ...c,
        value: (r: R) => {
          const v = c.value(r);
          return v === '' ? v : maskText(String(v));
        },
      };
    });
}

/** What answers "may this user type press this button?" (the permissions module's store, `app.permissions`). */
export interface ButtonChecker {
  buttonAllowed(b: ButtonDecl, type: number): Promise<boolean>;
}

/** Every button allowed: for work done outside a request (the demo data). */
export const ALL_BUTTONS: ButtonChecker = { buttonAllowed: () => Promise.resolve(true) };

/**
 * `actions` without those whose button (`buttons[action]`) the user type is not granted. An action
 * without a button stays (its call's access already decides it).
 */
export async function grantedActions<A extends string>(
  store: ButtonChecker,
  type: number,
  actions: readonly A[],
  buttons: Partial<Record<A, ButtonDecl | undefined>>,
): Promise<A[]> {
  const allowed = await Promise.all(actions.map((a) => (buttons[a] ? store.buttonAllowed(buttons[a], type) : true)));
  return actions.filter((_, i) => allowed[i]);
}
