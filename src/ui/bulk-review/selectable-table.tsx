import { useMemo } from 'react';
import { DataTable, type DataColumn, type DataTableProps } from '../data-table/data-table';

/** A DataTable led by a bulk review's checkbox column when one is given (the columns kept stable while rows are selected). */
export function SelectableTable<T extends { id: string }>({ selectColumn, columns, ...props }: DataTableProps<T> & { selectColumn: DataColumn<T> | null }) {
  const all = useMemo(() => (selectColumn ? [selectColumn, ...columns] : columns), [selectColumn, columns]);
  return <DataTable<T> {...props} columns={all} />;
}
