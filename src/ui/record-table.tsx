import type { ReactNode } from 'react';
import './record-table.css';

interface RecordTableProps {
  /** The column headings, the first heading each row's row header. */
  columns: readonly string[];
  /** Adds a last column for each row's buttons, headed for screen readers only. */
  actions?: boolean;
  /** Shown instead of the table when there are no rows. */
  empty: string;
  isEmpty: boolean;
  children: ReactNode;
}

/** A list of records as the access tokens, service clients and release requests pages show them (one row each). */
export function RecordTable({ columns, actions = false, empty, isEmpty, children }: RecordTableProps) {
  if (isEmpty) return <p>{empty}</p>;
  return (
    <div className="record-table__scroll">
      <table className="record-table">
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c} scope="col">
                {c}
              </th>
            ))}
            {actions ? (
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
