/**
 * The one paged table: speaks the paged request (results, page,
 * sortField, sortOrder + filters), page size 10 with 10/20/30/40, size changer, quick jumper,
 * "共 N 条"; a filter change goes back to page 1; sort cycles ascend → descend → none.
 */
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Select, Table } from 'antd';
import type { TableProps } from 'antd/es/table';
import type { SorterResult } from 'antd/es/table/interface';
import { keepPreviousData, queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  EMPTY_TABLE_TEXT,
  LIST_WINDOW_MAX,
  PAGE_SIZE_DEFAULT,
  PAGE_SIZE_OPTIONS,
  UI,
  type EndpointBody,
  type EndpointData,
  type EndpointDef,
  type PageFilters,
  type PagedEnvelope,
  type SortOrder,
} from '@esm/contracts';
import { call } from '../api/client.ts';
import { ahead, quietAhead, unlessFetchedAhead } from '../api/ahead.ts';
import { ErrorResult } from './ErrorResult.tsx';
import { StaleWarning } from './StaleWarning.tsx';
import { useVisibleColumns } from './ColumnSettings.tsx';
import { narrowColumns, wideColumns, type ListColumns } from './listColumns.tsx';
import { useNarrow } from './useScreen.ts';
import { fetchPermissionsAhead, useColumnModes, withoutHidden } from '../lib/permissions.ts';

/** A paged call: its body is a paged request, its answer a paged envelope. */
export type PagedEndpoint = EndpointDef & { body: z.ZodType; response: z.ZodType<PagedEnvelope<unknown>> };
/** The row of a paged call. */
export type RowOf<E extends EndpointDef> = EndpointData<E> extends readonly (infer R)[] ? R : never;
/** The filters of a paged call (its request without the paging fields). */
export type FiltersOf<E extends EndpointDef> = PageFilters<NonNullable<EndpointBody<E>>>;

export interface PagedTableProps<E extends PagedEndpoint, Row = RowOf<E>> {
  /** The paged call (its path is the cache key). */
  endpoint: E;
  /** Told the sort the user picked (e.g. so an export follows the table's order). */
  onSortChange?: (sort: { sortField?: string; sortOrder?: SortOrder }) => void;
  /** The columns, each with its role on a narrow screen (listColumns.tsx). */
  columns: ListColumns<Row>;
  filters: FiltersOf<E>;
  /** A field of the row, or (tree data whose levels differ) a function of it. */
  rowKey: (keyof Row & string) | ((row: Row) => string);
  /** Column settings: the table's name (choices kept per table) and the columns hidden until shown. */
  columnSettings?: { table: string; defaultHidden?: readonly string[] };
  toolbar?: ReactNode;
  size?: TableProps<Row>['size'];
  /** Checkbox selection (batch actions); passed to antd's Table as is. */
  rowSelection?: TableProps<Row>['rowSelection'];
  /** What an empty list says instead of the generic text (e.g. what to do to see something). */
  emptyText?: ReactNode;
  /** A class for a row that needs the eye, e.g. `OVERDUE_ROW` for one past its due date. */
  rowClassName?: (row: Row) => string;
  /** Tree data: antd's expandable, given the page's rows (e.g. to expand all of them). */
  expandable?: (rows: readonly Row[]) => TableProps<Row>['expandable'];
}

/** The row class of a row past its due date (a red tint, see global.css). */
export const OVERDUE_ROW = 'esm-row-overdue';

/** A paged call's page as PagedTable asks it (the call's path and the request are the cache key). */
export const pagedListQuery = <E extends PagedEndpoint, Row = RowOf<E>>(endpoint: E, request: object) =>
  queryOptions({
    queryKey: [endpoint.path, request],
    queryFn: ({ meta }) => call(endpoint, request as EndpointBody<E>, quietAhead(meta)) as Promise<PagedEnvelope<Row>>,
  });

/**
 * Asks the paged lists on screen again: a 搜索 or 重置 that leaves the filters as they were is the
 * user asking for what is new (the same request would otherwise be answered from the cache, and a
 * page kept open all day never showed a new application). Queries shaped as pagedListQuery's.
 */
export function refreshLists(queryClient: QueryClient) {
  return queryClient.refetchQueries({
    type: 'active',
    predicate: (q) => {
      const request = q.queryKey[1];
      return typeof request === 'object' && request !== null && 'page' in request && 'results' in request;
    },
  });
}

/** The request of a PagedTable's first render with `filters`: page 1, the default size, no sort. */
export const firstPageRequest = <E extends PagedEndpoint>(filters: FiltersOf<E>) => ({
  results: PAGE_SIZE_DEFAULT,
  page: 1,
  ...filters,
});

/**
 * A PagedTable's first answers for a page to fetch ahead of it (api/ahead.ts): the first page with
 * `filters`, the call's governed columns and the rules of the page's `buttons`.
 */
export function fetchPagedTableAhead<E extends PagedEndpoint>(
  queryClient: QueryClient,
  endpoint: E,
  filters: FiltersOf<E>,
  buttons: readonly EndpointDef[] = [],
) {
  ahead(queryClient, pagedListQuery(endpoint, firstPageRequest(filters)));
  fetchPermissionsAhead(queryClient, buttons, endpoint.columns);
}

/** Keeps the spinner 200 ms after loading ends so fast reloads do not flicker. */
function useLingering(loading: boolean, ms = UI.spinnerHideDelayMs): boolean {
  const [shown, setShown] = useState(loading);
  useEffect(() => {
    if (loading) return setShown(true);
    const t = setTimeout(() => setShown(false), ms);
    return () => clearTimeout(t);
  }, [loading, ms]);
  return shown;
}

/** A row's height by the table's size (one line of text and the cell padding). */
const ROW_HEIGHT = { small: 39, middle: 47, medium: 47, large: 55 } as const;

/**
 * What the table's body holds while its first page is on its way: the height of a full page of
 * rows, so that the rows arriving do not push what is below the table down (a layout shift,
 * counted against the page by the browser). The spinner sits over it.
 */
function FirstPageSpace({ rows, size }: { rows: number; size: keyof typeof ROW_HEIGHT }) {
  // the placeholder cell's own padding (16 px above and below) is part of the height
  return <div data-testid="table-first-page" style={{ height: rows * ROW_HEIGHT[size] - 32 }} />;
}

/** A response with `totalCapped` (counted only up to LIST_WINDOW_MAX) shows "共 10000+ 条". */
export function PagedTable<E extends PagedEndpoint, Row extends object = RowOf<E> & object>({
  endpoint,
  columns,
  filters,
  rowKey,
  toolbar,
  size,
  rowSelection,
  emptyText,
  onSortChange,
  columnSettings,
  rowClassName,
  expandable,
}: PagedTableProps<E, Row>) {
  // the call's governed columns: the server leaves hidden ones out, so the table does too
  const modes = useColumnModes(endpoint.columns);
  const permitted = useMemo(() => withoutHidden(columns, modes), [columns, modes]);
  const { visible, control } = useVisibleColumns(columnSettings?.table, permitted, columnSettings?.defaultHidden);
  const [page, setPage] = useState(1);
  const [results, setResults] = useState(PAGE_SIZE_DEFAULT);
  const [sort, setSort] = useState<{ field?: string; order?: SortOrder }>({});

  // A filter change goes back to page 1.
  const filterKey = JSON.stringify(filters);
  useEffect(() => setPage(1), [filterKey]);

  const request = useMemo(
    () => ({
      results,
      page,
      ...(sort.field && sort.order ? { sortField: sort.field, sortOrder: sort.order } : {}),
      ...filters,
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [results, page, sort.field, sort.order, filterKey],
  );
  // sortField comes from the table's columns; the server checks it against the call's list
  const query = useQuery({
    ...pagedListQuery<E, Row>(endpoint, request),
    placeholderData: keepPreviousData,
    refetchOnMount: unlessFetchedAhead,
  });
  const spinning = useLingering(query.isFetching);

  const narrow = useNarrow();
  const sortedColumns: ListColumns<Row> = (visible as ListColumns<Row>).map((c) => {
    const key = (c as { dataIndex?: string }).dataIndex ?? c.key;
    if (!c.sorter) return c;
    return {
      ...c,
      sortDirections: ['ascend', 'descend'] as SortOrder[],
      sortOrder: sort.field === key ? (sort.order ?? null) : null,
    };
  });
  const changeSort = (next: { field?: string; order?: SortOrder }) => {
    setSort(next.field && next.order ? next : {});
    onSortChange?.(next.field && next.order ? { sortField: next.field, sortOrder: next.order } : {});
    setPage(1);
  };
  // a phone's form has no column headers to click: the same sorts as a select above the rows
  const sortChoices = narrow
    ? sortedColumns.flatMap((c) => {
        if (!c.sorter) return [];
        const field = String((c as { dataIndex?: string }).dataIndex ?? c.key);
        const title = typeof c.title === 'string' ? c.title : field;
        return [
          { value: `${field}:ascend`, label: `${title} 升序` },
          { value: `${field}:descend`, label: `${title} 降序` },
        ];
      })
    : [];
  const rows = query.data?.data ?? [];
  const pageExpandable = expandable?.(rows);
  // a phone: what the row is, where it stands and what to do; the rest folds out (listColumns.tsx)
  const narrowForm = narrow ? narrowColumns(sortedColumns, Boolean(pageExpandable)) : undefined;

  if (query.isError && !query.data) return <ErrorResult error={query.error} onRetry={() => query.refetch()} />;

  return (
    <div>
      {control ? (
        <div style={{ display: 'flex', alignItems: 'flex-start', gap: 8 }}>
          <div style={{ flex: 1, minWidth: 0 }}>{toolbar}</div>
          {control}
        </div>
      ) : (
        toolbar
      )}
      {sortChoices.length > 0 && (
        <div className="esm-narrow-sort">
          <Select
            aria-label="排序"
            placeholder="排序"
            allowClear
            style={{ width: '100%' }}
            options={sortChoices}
            value={sort.field && sort.order ? `${sort.field}:${sort.order}` : undefined}
            onChange={(v?: string) => {
              const [field, order] = v ? v.split(':') : [];
              changeSort({ field, order: order as SortOrder | undefined });
            }}
          />
        </div>
      )}
      {query.isError && query.data && <StaleWarning error={query.error} onRetry={() => query.refetch()} />}
      <Table<Row>
        rowKey={rowKey}
        // a phone's cells keep 8 px of padding, not 16: the three columns need the room
        size={narrow ? 'small' : size}
        columns={narrowForm?.columns ?? wideColumns(sortedColumns)}
        dataSource={rows}
        loading={spinning}
        // widths from the content within the page's width; sideways scrolling only for a table
        // whose content cannot wrap any narrower (listColumns.tsx)
        tableLayout="auto"
        scroll={{ x: true }}
        // the horizontal scrollbar stays at the bottom of the window, not below the fold
        sticky={{ offsetScroll: 0 }}
        // 点击升序/降序 over the sort icon only: over the whole header it popped up whenever the
        // pointer crossed the header row (after a sign-in at 600 px it sat under the pointer)
        showSorterTooltip={{ target: 'sorter-icon' }}
        rowSelection={rowSelection}
        rowClassName={rowClassName ? (row) => rowClassName(row) : undefined}
        expandable={pageExpandable ?? narrowForm?.expandable}
        locale={{
          emptyText: query.isPending ? (
            <FirstPageSpace rows={results} size={narrow ? 'small' : (size ?? 'large')} />
          ) : (
            (emptyText ?? EMPTY_TABLE_TEXT)
          ),
        }}
        pagination={{
          current: page,
          pageSize: results,
          total: query.data?.total ?? 0,
          showSizeChanger: true,
          showQuickJumper: true,
          pageSizeOptions: PAGE_SIZE_OPTIONS.map(String),
          showTotal: (total) => (query.data?.totalCapped ? `共 ${LIST_WINDOW_MAX}+ 条` : `共 ${total} 条`),
        }}
        onChange={(pagination, _filters, sorter, extra) => {
          if (extra.action === 'sort') {
            const s = (Array.isArray(sorter) ? sorter[0] : sorter) as SorterResult<Row>;
            changeSort({ field: String(s.field ?? s.columnKey ?? ''), order: s.order ?? undefined });
            return;
          }
          if (pagination.pageSize && pagination.pageSize !== results) {
            setResults(pagination.pageSize);
            setPage(1);
          } else if (pagination.current) {
            setPage(pagination.current);
          }
        }}
      />
    </div>
  );
}
