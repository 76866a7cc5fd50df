import { isConflict, type EditorError } from '../../../machines/recordEditor.machine';

/**
 * Why a save failed; for a stale version (409) it says the user's changes are kept and offers the
 * current version, so no edit is silently lost (ARCHITECTURE.md "Calls").
 */
export function SaveErrorNotice({ error, onReload, kept = 'form' }: { error: EditorError; onReload?: (() => void) | undefined; kept?: 'form' | 'editor' }) {
  return (
    <div className="notice notice--negative" role="alert">
      <p>{error.message}</p>
      {isConflict(error) && onReload ? (
        <p>
          Your changes are still in the {kept}.{' '}
          <button type="button" className="button button--secondary" onClick={onReload}>
            Load the current version
          </button>
        </p>
      ) : null}
    </div>
  );
}
