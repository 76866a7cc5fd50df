import type { ReactNode } from 'react';

/**
 * A per-marker table of the calculator: caption, then a header of Marker, each role and the table's own `columns`; the
 * rows are `children`, each cell carrying its column's name as `data-label` for a screen that stacks it (`className`).
 */
export function MarkerTableFrame({ caption, roles, columns, className, children }: { caption: string; roles: readonly string[]; columns: readonly string[]; className?: string; children: ReactNode }) {
  return (
    <div className="calculator__scroll">
      <table className={className ? `calculator__markers ${className}` : 'calculator__markers'}>
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
