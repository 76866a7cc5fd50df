import type { ReactNode } from 'react';

/** A per-marker table of the calculator: caption, then a header of Marker, each role and the table's own `columns`; the rows are `children`. */
export function MarkerTableFrame({ caption, roles, columns, children }: { caption: string; roles: readonly string[]; columns: readonly string[]; children: ReactNode }) {
  return (
    <div className="calculator__scroll">
      <table className="calculator__markers">
        <caption>{caption}</caption>
        <thead>
          <tr>
            {['Marker', ...roles, ...columns].map((name, i) => (
              <th key={`${i}-${name}`} scope="col">
                {name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
