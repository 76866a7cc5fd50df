import { APPROVAL_REFUSALS, type ApprovalRefusal, type ProfileAssignment } from '../core/schemas/profiles';
import type { ProfileImportJob, ProfileImportRow, ImportRowFilter } from '../core/schemas/profile-imports';
import type { ChosenFile } from './populationUpload.machine';
import { GENERIC_FAILURE, toEditorError, type EditorError } from './recordEditor.machine';

// What the profile import's actors take and give (the calls of server/http/profile-imports/), and how their
// failures reach the screen: split from profileImport.machine.ts so the chart file holds only the chart.

/** A job as the API shows it, with the `Approval-Token` response header (null while it may not be confirmed). */
export interface JobView {
  job: ProfileImportJob;
  token: string | null;
}

export interface UploadRequest {
  file: ChosenFile;
  caseId: string;
}

export interface JobRequest {
  importId: string;
}

/** The user's unfinished imports of a case (GET /profile-imports?caseId=…&open=true). */
export interface UnfinishedRequest {
  caseId: string;
}

export interface PageRequest {
  importId: string;
  page: number;
  pageSize: number;
  filter: ImportRowFilter;
  /** The kit chosen for the add: the rows' peak heights are weighed against it (issue 31); null: none yet. */
  chemistryId: string | null;
}

/** One page of the import's profiles and how many match the filter. */
export interface RowsPage {
  items: ProfileImportRow[];
  count: number;
}

/** The add call: every profile without parser errors less `exclude` (server default), with the approval token. */
export interface AddImportRequest {
  importId: string;
  token: string;
  body: ProfileAssignment & { exclude: number[]; groups?: number[][] };
}

/** Why a call failed, plus why the server refused the approval token (400 `details.approval`), if it did. */
export interface ImportError extends EditorError {
  approval?: ApprovalRefusal;
}

/**
 * What the actors may reject with, so the screen shows the server's message and the machine can
 * tell an expired approval from other refusals. `status` 0: no response came.
 */
export class ImportCallError extends Error {
  override readonly name = 'ImportCallError';

  constructor(
    message: string,
    readonly status = 0,
    readonly approval?: ApprovalRefusal,
  ) {
    super(message);
  }
}

const isRefusal = (value: unknown): value is ApprovalRefusal => (APPROVAL_REFUSALS as readonly unknown[]).includes(value);

/** Turns what an actor rejected with into what the screen shows: an ImportCallError as is, an ApiError by its status, message and `details.approval`. */
export function toImportError(err: unknown): ImportError {
  const base =
    err instanceof ImportCallError ? { status: err.status, message: err.message || GENERIC_FAILURE } : toEditorError(err);
  const approval = err instanceof ImportCallError ? err.approval : (err as { body?: { details?: { approval?: unknown } } })?.body?.details?.approval;
  return isRefusal(approval) ? { ...base, approval } : base;
}

/** The server's words for an approval that ran out (server/http/profile-imports/confirm-import.ts), for a job that no longer offers one. */
export const APPROVAL_EXPIRED_MESSAGE = 'The approval of this import has expired. Parse the file again, then confirm.';
