/**
 * How a list's columns meet the screen, decided once for every list (PagedTable).
 *
 * Each column may say what it is for (`role`):
 * - identity: what the row is (number, code, title, name) — a phone stacks these in its first cell;
 * - state: where the row stands (状态, 确认状态 tags) — a phone's second cell;
 * - actions: what the user can do (操作) — always shown;
 * - detail: everything else — on a phone folded into the row's expandable part.
 * A column that does not say: key `actions` or title 操作 is actions; the first column (and a
 * column fixed to the left) is identity; a title ending in 状态 is state; the rest is detail.
 *
 * Wide screens: the browser sizes the columns from their content (table-layout auto) within the
 * page's width, so nothing scrolls sideways when the content can wrap, and a sticky 操作 column
 * only stands over other columns when the table is really wider than the page. A column that
 * asked for antd's ellipsis wraps to two lines instead (the full text in its tooltip): a title cut
 * after five characters decided nothing.
 */
import { useMemo, type ReactNode } from 'react';
import type { ColumnsType, TableProps } from 'antd/es/table';
import { Descriptions } from 'antd';
import { useNarrow } from './useScreen.ts';

export type ColumnRole = 'identity' | 'state' | 'actions' | 'detail';
/** A list column: antd's column with what it is for on a narrow screen. */
export type ListColumn<Row> = ColumnsType<Row>[number] & { role?: ColumnRole };
export type ListColumns<Row> = ListColumn<Row>[];

const titleText = (c: { title?: unknown }) => (typeof c.title === 'string' ? c.title : '');

/** The role a column declared, or the one its place and title imply. */
export function roleOf<Row>(c: ListColumn<Row>, index: number): ColumnRole {
  if (c.role) return c.role;
  if (c.key === 'actions' || titleText(c) === '操作') return 'actions';
  if (index === 0 || c.fixed === 'left' || c.fixed === true) return 'identity';
  if (/状态$/.test(titleText(c))) return 'state';
  return 'detail';
}

/** What a column shows for `row`, as the table would render it. */
export function cellOf<Row>(c: ListColumn<Row>, row: Row, index: number): ReactNode {
  const dataIndex = (c as { dataIndex?: string | number | readonly (string | number)[] }).dataIndex;
  const path = dataIndex === undefined ? [] : Array.isArray(dataIndex) ? dataIndex : [dataIndex as string | number];
  const value = path.length
    ? path.reduce<unknown>((o, k) => (o == null ? undefined : (o as Record<string | number, unknown>)[k]), row)
    : undefined;
  const rendered: unknown = 'render' in c && c.render ? c.render(value, row, index) : value;
  // antd lets render answer { children, props }: the cell's content is its children
  const content =
    rendered !== null &&
    typeof rendered === 'object' &&
    'children' in rendered &&
    'props' in rendered &&
    !('$$typeof' in rendered)
      ? (rendered as { children: ReactNode }).children
      : (rendered as ReactNode);
  return content === undefined || content === null || content === '' ? '—' : content;
}

/** The text a cell shows, for its tooltip, when it is plain text. */
const plainText = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : undefined);

/** Wide screens: widths from the content, two-line wrap instead of ellipsis. */
export function wideColumns<Row>(columns: ListColumns<Row>): ColumnsType<Row> {
  return columns.map((col) => {
    const { role, width, ellipsis, ...c } = col as ListColumn<Row> & { width?: unknown; ellipsis?: unknown };
    if (!ellipsis) return c as ColumnsType<Row>[number];
    return {
      ...c,
      render: (value: unknown, row: Row, index: number) => {
        const shown = cellOf(col, row, index);
        return (
          <div className="esm-cell-wrap" title={plainText(shown) ?? plainText(value)}>
            {shown}
          </div>
        );
      },
    } as ColumnsType<Row>[number];
  });
}

/**
 * Narrow screens: identity, state and actions as columns (classes esm-col-identity, -state,
 * -actions, for tests and styles); the rest in the row's fold.
 */
export function narrowColumns<Row>(
  columns: ListColumns<Row>,
  treeData: boolean,
): { columns: ColumnsType<Row>; expandable?: TableProps<Row>['expandable'] } {
  const roles = columns.map((c, i) => roleOf(c, i));
  const of = (role: ColumnRole) => columns.filter((_, i) => roles[i] === role);
  const identity = of('identity');
  const state = of('state');
  const details = of('detail');
  const stack = (cols: ListColumns<Row>, key: string, extra: ListColumns<Row> = []): ColumnsType<Row>[number] => ({
    key,
    className: `esm-col-${key.slice('narrow-'.length)}`,
    // the first column's name: all of them stacked the header as tall as a row
    title: titleText(cols[0] ?? {}),
    render: (_: unknown, row: Row, index: number) => (
      <div className="esm-narrow-stack">
        {cols.map((c, k) => (
          <div key={k} className={k ? 'esm-narrow-sub' : undefined}>
            {cellOf(c, row, index)}
          </div>
        ))}
        {extra.map((c, k) => (
          <div key={`d${k}`} className="esm-narrow-sub">
            {titleText(c)}：{cellOf(c, row, index)}
          </div>
        ))}
      </div>
    ),
  });
  const out: ColumnsType<Row> = [];
  // a tree's rows already expand into their children: its details go under the identity instead
  if (identity.length) out.push(stack(identity, 'narrow-identity', treeData ? details : []));
  if (state.length) out.push(stack(state, 'narrow-state'));
  for (const c of of('actions')) {
    const { role, width, fixed, ...rest } = c as ListColumn<Row> & { width?: unknown };
    out.push({ ...rest, className: 'esm-col-actions' } as ColumnsType<Row>[number]);
  }
  if (treeData || !details.length) return { columns: out };
  return {
    columns: out,
    expandable: {
      columnWidth: 36,
      expandedRowRender: (row, index) => (
        <Descriptions
          size="small"
          column={1}
          items={details.map((c, k) => ({
            key: String(c.key ?? k),
            label: titleText(c) || '—',
            children: cellOf(c, row, index),
          }))}
        />
      ),
    },
  };
}

/**
 * A list's columns for the screen it is on: the narrow form below the phone breakpoint, the wide
 * one (widths from the content) above it. For a table that is not a PagedTable (ListTable).
 */
export function useListColumns<Row>(
  columns: ListColumns<Row>,
  treeData = false,
): { narrow: boolean; columns: ColumnsType<Row>; expandable?: TableProps<Row>['expandable'] } {
  const narrow = useNarrow();
  return useMemo(
    () => (narrow ? { narrow, ...narrowColumns(columns, treeData) } : { narrow, columns: wideColumns(columns) }),
    [narrow, columns, treeData],
  );
}
