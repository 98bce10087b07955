/**
 * A list that is not paged by the server (a report's rows, a notice's changes) in the same two
 * forms as PagedTable: on a phone what the row is, where it stands and what to do, the rest in
 * the row's fold; on a wider screen every column, sized from its content (listColumns.tsx).
 */
import { Table } from 'antd';
import type { TableProps } from 'antd/es/table';
import { useListColumns, type ListColumns } from './listColumns.tsx';

export type ListTableProps<Row> = Omit<TableProps<Row>, 'columns' | 'expandable' | 'tableLayout' | 'scroll'> & {
  columns: ListColumns<Row>;
};

export function ListTable<Row extends object>({ columns, size, ...rest }: ListTableProps<Row>) {
  const form = useListColumns(columns);
  return (
    <Table<Row>
      {...rest}
      // a phone's cells keep 8 px of padding, not 16: the columns need the room
      size={form.narrow ? 'small' : size}
      columns={form.columns}
      expandable={form.expandable}
      tableLayout="auto"
      scroll={{ x: true }}
    />
  );
}
