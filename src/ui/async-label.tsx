import { useEffect, useState } from 'react';

export const LOOKUP_FAILED_TEXT = 'n/a';

interface AsyncLabelProps {
  /** Shown until the lookup answers, and for good when there is no lookup. */
  placeholder: string;
  /** Resolves to the label; a rejection shows n/a (spec 8.2). Returning undefined keeps the placeholder. */
  load?: (() => Promise<string> | undefined) | undefined;
  /** Changing the key restarts the lookup. */
  lookupKey: string;
}

type State = { status: 'pending' } | { status: 'done'; label: string } | { status: 'failed' };

/** A label whose text comes from an asynchronous lookup, e.g. a record's name in a breadcrumb. */
export function AsyncLabel({ placeholder, load, lookupKey }: AsyncLabelProps) {
  const [state, setState] = useState<State>({ status: 'pending' });
  useEffect(() => {
    let pending: Promise<string> | undefined;
    try {
      pending = load?.();
    } catch {
      setState({ status: 'failed' });
      return undefined;
    }
    setState({ status: 'pending' });
    if (!pending) return undefined;
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
  return <>{placeholder}</>;
}
