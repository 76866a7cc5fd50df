import { useEffect, useState } from 'react';

export const LOOKUP_FAILED_TEXT = 'n/a';

/** What a label shows while its lookup is under way: neutral, never a raw id (issue 30). */
export const LOOKUP_PENDING_TEXT = '…';

interface AsyncLabelProps {
  /** Shown for good when there is no lookup (`load` absent or answering undefined). */
  placeholder: string;
  /** Shown until the lookup answers; the placeholder when not given. */
  pendingText?: string;
  /** Resolves to the label; a rejection shows n/a (spec 8.2). Returning undefined keeps the placeholder. */
  load?: (() => Promise<string> | undefined) | undefined;
  /** Changing the key restarts the lookup. */
  lookupKey: string;
}

type State = { status: 'pending' } | { status: 'none' } | { status: 'done'; label: string } | { status: 'failed' };

/** A label whose text comes from an asynchronous lookup, e.g. a record's name in a breadcrumb. */
export function AsyncLabel({ placeholder, pendingText = placeholder, load, lookupKey }: AsyncLabelProps) {
  const [state, setState] = useState<State>({ status: load ? 'pending' : 'none' });
  useEffect(() => {
    let pending: Promise<string> | undefined;
    try {
      pending = load?.();
    } catch {
      setState({ status: 'failed' });
      return undefined;
    }
    if (!pending) {
      setState({ status: 'none' });
      return undefined;
    }
    setState({ status: 'pending' });
    let current = true;
    pending.then(
      (label) => current && setState({ status: 'done', label }),
      () => current && setState({ status: 'failed' }),
    );
    // A late answer for a previous record must not overwrite the current one.
    return () => {
      current = false;
    };
    // `load` is usually a fresh closure each render; the key says when the record changed.
  }, [lookupKey]);
  if (state.status === 'done') return <>{state.label}</>;
  if (state.status === 'failed') return <>{LOOKUP_FAILED_TEXT}</>;
  if (state.status === 'none') return <>{placeholder}</>;
  return <span aria-busy="true">{pendingText}</span>;
}
