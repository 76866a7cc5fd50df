import type { ReactNode } from 'react';
import type { Loaded } from './use-loaded';

/** Loading…, the failure (404 as "no longer exists" with `missing`), or the loaded value drawn by `children`. */
export function LoadState<T>({ loaded, missing, children }: { loaded: Loaded<T> & { reload(): void }; missing: string; children(value: T): ReactNode }) {
  if (loaded.status === 'loading') {
    return (
      <p role="status" aria-busy="true">
        Loading…
      </p>
    );
  }
  if (loaded.status === 'failed') {
    return (
      <div className="notice notice--negative" role="alert">
        <p>{loaded.error.status === 404 ? missing : loaded.error.message}</p>
        {loaded.error.status !== 404 ? (
          <button type="button" className="button button--secondary" onClick={loaded.reload}>
            Try again
          </button>
        ) : null}
      </div>
    );
  }
  return <>{children(loaded.value)}</>;
}
