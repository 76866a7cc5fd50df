import type { ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import type { ListQueryInput, ListResult } from '../../../core/schemas/list';
import { DataTable, type DataColumn } from '../../ui/data-table/data-table';

interface TablePageProps<T extends { id: string }> {
  title: string;
  columns: readonly DataColumn<T>[];
  load(query: ListQueryInput): Promise<ListResult<T>>;
  rowHref?(row: T): string | undefined;
  /** The Add button's target; left out when the user may not add. */
  addHref?: string | undefined;
  addLabel?: string;
  intro?: ReactNode;
}

/** An administration table: heading, Add (when permitted) and the server-paged grid. */
export function TablePage<T extends { id: string }>({ title, columns, load, rowHref, addHref, addLabel = 'Add', intro }: TablePageProps<T>) {
  const [, navigate] = useLocation();
  return (
    <section className="page" aria-labelledby="page-title">
      <div className="page__header">
        <h1 id="page-title">{title}</h1>
        {addHref ? (
          <Link href={addHref} className="button button--primary">
            {addLabel}
          </Link>
        ) : null}
      </div>
      {intro}
      <DataTable<T> label={title} columns={columns} load={load} {...(rowHref ? { rowHref } : {})} onNavigate={navigate} />
    </section>
  );
}
