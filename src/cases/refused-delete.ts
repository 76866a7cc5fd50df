import { toEditorError } from '../../machines/recordEditor.machine';

/**
 * Rethrows a failed delete for the editor to show. A 409 here means the server refuses the delete
 * (a case that still has profiles, an item profiles were typed from), not a stale edit, so it is
 * passed on without that status: the form shows the server's reason instead of offering to load
 * the current version.
 */
export function refusedDelete(err: unknown): never {
  const error = toEditorError(err);
  throw { status: error.status === 409 ? 0 : error.status, serverMessage: error.message };
}
