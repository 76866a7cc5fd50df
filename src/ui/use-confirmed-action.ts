import { useState } from 'react';
import { toEditorError } from '../../machines/recordEditor.machine';

/**
 * An action on one record of a list that asks first (revoke a token or client, release or refuse a request): the
 * record asked about, whether the call is running, and what the server said when it failed. The dialog closes either
 * way; `onDone` (read the list again) runs only after success.
 */
export function useConfirmedAction<T>(act: (target: T) => Promise<unknown>, onDone: () => void) {
  const [target, setTarget] = useState<T | null>(null);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const ask = (next: T) => {
    setFailure(null);
    setTarget(next);
  };
  const confirm = async () => {
    if (target === null) return;
    setBusy(true);
    setFailure(null);
    try {
      await act(target);
      onDone();
    } catch (err) {
      setFailure(toEditorError(err).message);
    } finally {
      setTarget(null);
      setBusy(false);
    }
  };
  return { target, busy, failure, ask, cancel: () => setTarget(null), confirm };
}
