import { useState } from 'react';

/** A button's action on the hit screens: busy while it runs, and what failed, in words, until the next try. */
export function useAction() {
  const [state, setState] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  const run = async (act: () => Promise<string | null | void>) => {
    setState({ busy: true, error: null });
    try {
      // An action may end with a reason it did nothing (said like a failure, the page kept as it is).
      setState({ busy: false, error: (await act()) ?? null });
    } catch (err) {
      setState({ busy: false, error: err instanceof Error ? err.message : String(err) });
    }
  };
  return { ...state, run };
}

/** What an action's failure says, announced; nothing when it did not fail. */
export function ActionError({ error }: { error: string | null }) {
  return error ? (
    <p className="notice notice--negative" role="alert">
      {error}
    </p>
  ) : null;
}
