import { useSelector } from '@xstate/react';
import { useRef } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { BulkSelected, createBulkReviewMachine } from '../../../machines/bulkReview.machine';
import type { DataColumn } from '../data-table/data-table';
import { useOwnClick } from '../data-table/use-own-click';

/** A running bulk review machine of any domain. */
export type BulkReviewActor<A extends string> = ActorRefFrom<ReturnType<typeof createBulkReviewMachine<A>>['machine']>;

/** One row's checkbox; its click toggles the row and does not open it (useOwnClick). */
function RowCheckbox<A extends string>({ actor, record }: { actor: BulkReviewActor<A>; record: BulkSelected }) {
  const checked = useSelector(actor, (s) => s.context.selected.some((r) => r.id === record.id));
  const selectable = useSelector(actor, (s) => s.can({ type: 'selection.toggle', record }));
  const ref = useRef<HTMLInputElement>(null);
  useOwnClick(ref, () => actor.send({ type: 'selection.toggle', record }));
  return <input ref={ref} type="checkbox" className="bulk-review__checkbox" aria-label={`Select ${record.label}`} checked={checked} disabled={!selectable && !checked} onChange={() => undefined} />;
}

/** The leading column of a list whose rows can be decided together: a checkbox per row, naming the row by `label`. */
export function selectionColumn<A extends string, T extends { id: string; version: number }>(actor: BulkReviewActor<A>, label: (row: T) => string): DataColumn<T> {
  return {
    field: 'selected',
    header: 'Select',
    width: 80,
    text: () => '',
    render: (row) => <RowCheckbox actor={actor} record={{ id: row.id, version: row.version, label: label(row) }} />,
  };
}
