import { useEffect, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import { SaveErrorNotice } from './save-error-notice';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import type { RecordEditor } from './use-record-editor';

interface EditorPageProps<R, V> {
  /** Heading, e.g. "New laboratory" or "Laboratory". */
  title: string;
  editor: RecordEditor<R, V>;
  /** Where the user goes after saving or deleting (usually the area's table). */
  doneHref: string | ((record: R | null) => string);
  /** What the delete dialog names, e.g. `laboratory "Oslo"`. */
  deleteWhat?: (record: R) => string;
  /** What else the delete does, said in its confirmation (e.g. the profiles a party's delete unlinks), or null. */
  deleteNote?: ((record: R) => ReactNode) | undefined;
  children: ReactNode;
}

/**
 * The frame of every edit screen: loading and load failure, the save/delete error (a conflict
 * offers to reload the current version), the delete confirmation, and leaving when done.
 */
export function EditorPage<R, V>({ title, editor, doneHref, deleteWhat, deleteNote, children }: EditorPageProps<R, V>) {
  const [, navigate] = useLocation();
  const done = editor.status === 'saved' || editor.status === 'deleted';
  useEffect(() => {
    // The saved (or deleted) form's history entry is replaced: Back must not reopen a form already saved (issue 30).
    if (done) navigate(typeof doneHref === 'function' ? doneHref(editor.record) : doneHref, { replace: true });
  }, [done]);

  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title">{title}</h1>
      {editor.status === 'loading' || editor.status === 'starting' ? (
        <p role="status" aria-busy="true">
          Loading…
        </p>
      ) : editor.status === 'loadFailed' ? (
        <div className="notice notice--negative" role="alert">
          <p>{editor.error?.status === 404 ? 'This record no longer exists.' : editor.error?.message}</p>
          {editor.error?.status !== 404 ? (
            <button type="button" className="button button--secondary" onClick={editor.retry}>
              Try again
            </button>
          ) : null}
        </div>
      ) : (
        <>
          {editor.error ? <SaveErrorNotice error={editor.error} onReload={editor.isNew ? undefined : editor.reload} /> : null}
          {children}
          {deleteWhat && editor.record ? (
            <ConfirmDialog
              open={editor.status === 'confirmingDelete' || editor.status === 'deleting'}
              title="Delete?"
              confirmLabel="Delete"
              busy={editor.status === 'deleting'}
              onConfirm={editor.confirmDelete}
              onCancel={editor.cancelDelete}
            >
              <p>Delete {deleteWhat(editor.record)}? This cannot be undone.</p>
              {deleteNote?.(editor.record) ?? null}
            </ConfirmDialog>
          ) : null}
        </>
      )}
    </section>
  );
}
