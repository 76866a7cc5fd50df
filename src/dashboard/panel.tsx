import { useId, type ReactNode } from 'react';
import { LoadState } from '../profiles/load-state';
import type { Loaded } from '../profiles/use-loaded';

export type PanelData<T> = Loaded<T> & { reload(): void };

interface PanelProps<T> {
  title: string;
  loaded: PanelData<T>;
  /** Whether the loaded value has nothing to show; `empty` is said instead. */
  isEmpty(value: T): boolean;
  empty: string;
  /** Actions beside the heading (e.g. New task). */
  actions?: ReactNode;
  children(value: T): ReactNode;
}

/** One dashboard panel: a labelled region with its heading, and Loading…, the failure with Try again, the empty text or the content. */
export function Panel<T>({ title, loaded, isEmpty, empty, actions, children }: PanelProps<T>) {
  const headingId = useId();
  return (
    <section className="dashboard-panel" aria-labelledby={headingId}>
      <div className="dashboard-panel__header">
        <h2 id={headingId}>{title}</h2>
        {actions}
      </div>
      <LoadState loaded={loaded} missing="Not found.">
        {(value) => (isEmpty(value) ? <p className="dashboard-panel__empty">{empty}</p> : children(value))}
      </LoadState>
    </section>
  );
}
