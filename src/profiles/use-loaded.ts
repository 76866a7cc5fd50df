import { useCallback, useEffect, useState } from 'react';
import { toEditorError, type EditorError } from '../../machines/recordEditor.machine';

export type Loaded<T> = { status: 'loading' } | { status: 'failed'; error: EditorError } | { status: 'loaded'; value: T };

/**
 * Reads what a screen shows (a profile, the form options) and lets it be read again or replaced by
 * a call's answer. `key` says when to read again; `read` may be a fresh closure each render.
 */
export function useLoaded<T>(key: string, read: () => Promise<T>): Loaded<T> & { reload(): void; replace(value: T): void } {
  const [state, setState] = useState<Loaded<T>>({ status: 'loading' });
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    let current = true;
    read().then(
      (value) => current && setState({ status: 'loaded', value }),
      (err: unknown) => current && setState({ status: 'failed', error: toEditorError(err) }),
    );
    // A late answer for an earlier key must not overwrite the current one.
    return () => {
      current = false;
    };
  }, [key, generation]);
  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  const replace = useCallback((value: T) => setState({ status: 'loaded', value }), []);
  return { ...state, reload, replace };
}
