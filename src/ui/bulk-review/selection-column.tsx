import { useSelector } from '@xstate/react';
import { useEffect, useRef } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { BulkSelected, createBulkReviewMachine } from '../../../machines/bulkReview.machine';
import type { DataColumn } from '../data-table/data-table';

/** A running bulk review machine of any domain. */
export type BulkReviewActor<A extends string> = ActorRefFrom<ReturnType<typeof createBulkReviewMachine<A>>['machine']>;

/**
 * One row's checkbox. The grid listens on the row natively to open it, so the click and the keys stay with
 * the checkbox through native listeners (React's stopPropagation would come too late), and the toggle is
 * sent from there too.
 */
function RowCheckbox<A extends string>({ actor, record }: { actor: BulkReviewActor<A>; record: BulkSelected }) {
  const checked = useSelector(actor, (s) => s.context.selected.some((r) => r.id === record.id));
  const selectable = useSelector(actor, (s) => s.can({ type: 'selection.toggle', record }));
  const ref = useRef<HTMLInputElement>(null);
  const latest = useRef(record);
  latest.current = record;
  useEffect(() => {
    const box = ref.current;
    if (!box) return;
    const click = (e: Event) => {
      e.stopPropagation();
      actor.send({ type: 'selection.toggle', record: latest.current });
    };
    const keep = (e: Event) => e.stopPropagation();
    box.addEventListener('click', click);
    box.addEventListener('keydown', keep);
    return () => {
      box.removeEventListener('click', click);
      box.removeEventListener('keydown', keep);
    };
  }, [actor]);
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
