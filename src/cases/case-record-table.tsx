import { useCallback } from 'react';
import { Link, useLocation } from 'wouter';
import type { ListQueryInput, ListResult } from '../../core/schemas/list';
import { DataTable, type DataColumn } from '../ui/data-table/data-table';

interface CaseRecordTableProps<T extends { id: string }> {
  title: string;
  caseId: string;
  columns: readonly DataColumn<T>[];
  load(caseId: string, query: ListQueryInput): Promise<ListResult<T>>;
  /** Where a row leads; left out when the user may not open the form. */
  rowHref?: ((row: T) => string) | undefined;
  /** The Add button's target; left out when the user may not add. */
  addHref?: string | undefined;
  addLabel: string;
  emptyText: string;
}

/** A tab of the case view listing records kept in the case (involved parties, physical items), with Add when permitted. */
export function CaseRecordTable<T extends { id: string }>({ title, caseId, columns, load, rowHref, addHref, addLabel, emptyText }: CaseRecordTableProps<T>) {
  const [, navigate] = useLocation();
  const loadRows = useCallback((query: ListQueryInput) => load(caseId, query), [load, caseId]);
  return (
    <>
      <div className="case-tab__header">
        <h2>{title}</h2>
        {addHref ? (
          <Link href={addHref} className="button button--primary">
            {addLabel}
          </Link>
        ) : null}
      </div>
      <DataTable<T> label={title} columns={columns} load={loadRows} {...(rowHref ? { rowHref } : {})} onNavigate={navigate} emptyText={emptyText} />
    </>
  );
}
