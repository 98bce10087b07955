/**
 * The one paged table (design §6, spec §2/§9): speaks the paged request (results, page,
 * sortField, sortOrder + filters), page size 10 with 10/20/30/40, size changer, quick jumper,
 * "共 N 条"; a filter change goes back to page 1; sort cycles ascend → descend → none.
 */
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Table } from 'antd';
import type { ColumnsType, TableProps } from 'antd/es/table';
import type { SorterResult } from 'antd/es/table/interface';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { EMPTY_TABLE_TEXT, LIST_WINDOW_MAX, PAGE_SIZE_DEFAULT, PAGE_SIZE_OPTIONS, UI, type PagedEnvelope, type SortOrder } from '@esm/contracts';
import { ErrorResult } from './ErrorResult.tsx';

export interface PageRequest {
  results: number;
  page: number;
  sortField?: string;
  sortOrder?: SortOrder;
}

export interface PagedTableProps<Row, F extends object> {
  /** Cache key of the list (the endpoint's name). */
  queryKey: string;
  /** Told the sort the user picked (e.g. so an export follows the table's order). */
  onSortChange?: (sort: { sortField?: string; sortOrder?: SortOrder }) => void;
  /** A response with `totalCapped` (counted only up to LIST_WINDOW_MAX) shows "共 10000+ 条". */
  fetcher: (req: PageRequest & F) => Promise<PagedEnvelope<Row> & { totalCapped?: boolean }>;
  columns: ColumnsType<Row>;
  filters: F;
  rowKey: keyof Row & string;
  toolbar?: ReactNode;
  scrollX?: number;
  size?: TableProps<Row>['size'];
  /** Checkbox selection (batch actions); passed to antd's Table as is. */
  rowSelection?: TableProps<Row>['rowSelection'];
  /** What an empty list says instead of the generic text (e.g. what to do to see something). */
  emptyText?: ReactNode;
}

/** Keeps the spinner 200 ms after loading ends (spec §9) so fast reloads do not flicker. */
function useLingering(loading: boolean, ms = UI.spinnerHideDelayMs): boolean {
  const [shown, setShown] = useState(loading);
  useEffect(() => {
    if (loading) return setShown(true);
    const t = setTimeout(() => setShown(false), ms);
    return () => clearTimeout(t);
  }, [loading, ms]);
  return shown;
}

export function PagedTable<Row extends object, F extends object>({ queryKey, fetcher, columns, filters, rowKey, toolbar, scrollX, size, rowSelection, emptyText, onSortChange }: PagedTableProps<Row, F>) {
  const [page, setPage] = useState(1);
  const [results, setResults] = useState(PAGE_SIZE_DEFAULT);
  const [sort, setSort] = useState<{ field?: string; order?: SortOrder }>({});

  // A filter change goes back to page 1.
  const filterKey = JSON.stringify(filters);
  useEffect(() => setPage(1), [filterKey]);

  const request = useMemo(
    () => ({ results, page, ...(sort.field && sort.order ? { sortField: sort.field, sortOrder: sort.order } : {}), ...filters }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [results, page, sort.field, sort.order, filterKey],
  );
  const query = useQuery({ queryKey: [queryKey, request], queryFn: () => fetcher(request as PageRequest & F), placeholderData: keepPreviousData });
  const spinning = useLingering(query.isFetching);

  const sortedColumns = columns.map((c) => {
    const key = (c as { dataIndex?: string }).dataIndex ?? c.key;
    if (!c.sorter) return c;
    return { ...c, sortDirections: ['ascend', 'descend'] as SortOrder[], sortOrder: sort.field === key ? (sort.order ?? null) : null };
  });

  if (query.isError && !query.data) return <ErrorResult error={query.error} onRetry={() => query.refetch()} />;

  return (
    <div>
      {toolbar}
      <Table<Row>
        rowKey={rowKey}
        size={size}
        columns={sortedColumns}
        dataSource={query.data?.data ?? []}
        loading={spinning}
        scroll={scrollX ? { x: scrollX } : undefined}
        rowSelection={rowSelection}
        locale={{ emptyText: emptyText ?? EMPTY_TABLE_TEXT }}
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
            const field = String(s.field ?? s.columnKey ?? '');
            setSort(s.order ? { field, order: s.order } : {});
            onSortChange?.(s.order ? { sortField: field, sortOrder: s.order } : {});
            setPage(1);
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
