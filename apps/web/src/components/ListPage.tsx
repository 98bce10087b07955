/**
 * A list page in one declaration: a paged call, its columns and its filter fields.
 * The log pages, the archive history and the visit log are each one of these.
 */
import { useState, type ReactNode } from 'react';
import { EMPTY_TABLE_TEXT } from '@esm/contracts';
import type { TableProps } from 'antd/es/table';
import type { ListColumns } from './listColumns.tsx';
import { FilterForm, type FilterField, type Filters } from './FilterForm.tsx';
import { PagedTable, type FiltersOf, type PagedEndpoint, type RowOf } from './PagedTable.tsx';

export interface ListPageProps<E extends PagedEndpoint, Row = RowOf<E>> {
  endpoint: E;
  /** The columns, each with its role on a narrow screen (listColumns.tsx). */
  columns: ListColumns<Row>;
  fields: readonly FilterField[];
  rowKey: keyof Row & string;
  /** data-testid of the filter form (tests find it by that). */
  filterTestId?: string;
  /** Filters the page always sends, whatever the form says. */
  fixed?: Filters;
  /** Beside the filter form (e.g. an export button, given the filters the form holds). */
  extra?: ReactNode | ((filters: Filters) => ReactNode);
  rowSelection?: TableProps<Row>['rowSelection'];
  /** Column settings: the table's name and the columns hidden until the user shows them. */
  columnSettings?: { table: string; defaultHidden?: readonly string[] };
  /** What an empty list says instead of the generic text while no filter is set (with one: 没有匹配的结果). */
  emptyText?: ReactNode;
  rowClassName?: (row: Row) => string;
}

export function ListPage<E extends PagedEndpoint, Row extends object = RowOf<E> & object>({
  endpoint,
  columns,
  fields,
  rowKey,
  filterTestId,
  fixed,
  extra,
  rowSelection,
  columnSettings,
  emptyText,
  rowClassName,
}: ListPageProps<E, Row>) {
  const [filters, setFilters] = useState<Filters>({});
  // the page's own empty text says there is nothing at all; with a filter set, nothing matched it
  const filtered = Object.values(filters).some((v) => v !== undefined && v !== '');
  return (
    <PagedTable<E, Row>
      endpoint={endpoint}
      columns={columns}
      filters={{ ...filters, ...fixed } as FiltersOf<E>}
      rowKey={rowKey}
      columnSettings={columnSettings}
      rowSelection={rowSelection}
      emptyText={filtered ? EMPTY_TABLE_TEXT : emptyText}
      rowClassName={rowClassName}
      toolbar={
        <>
          <FilterForm fields={fields} onChange={setFilters} testId={filterTestId} />
          {typeof extra === 'function' ? extra(filters) : extra}
        </>
      }
    />
  );
}
