import { assertEvent } from 'xstate';
import { IMPORT_RUNNING_STATES, type ImportState } from '../core/schemas/profile-imports';
import { toImportError, type JobView } from './profileImport.calls';
import { joinable } from './profileImport.groups';
import { confirmBlockers, listedJob, pageCount, toggleable, type ProfileImportContext, type ProfileImportEvent } from './profileImport.context';

// The profile import chart's guards: what the job's state, the preview and the list allow. Split from
// profileImport.machine.ts, which names them in its chart.

type GuardArgs = { context: ProfileImportContext; event: ProfileImportEvent };

const jobIn =
  (...states: ImportState[]) =>
  ({ context }: GuardArgs) =>
    context.job !== null && states.includes(context.job.state);

/** The guards of profileImportMachine, by the names its chart uses. */
export const profileImportGuards = {
  jobRunning: (_: GuardArgs, params: { view: JobView }) => IMPORT_RUNNING_STATES.has(params.view.job.state),
  running: jobIn('parsing', 'checking', 'adding'),
  reading: jobIn('parsing'),
  adding: jobIn('checking', 'adding'),
  /** Back from the check: chosen profiles do not fit the assignment. */
  problemsFound: ({ context }: GuardArgs) => context.job?.state === 'parsed' && context.job.problemCount > 0,
  parsed: jobIn('parsed'),
  added: jobIn('added'),
  /** Cancelled before any confirmation: the reading of the file was stopped. */
  parseCancelled: ({ context }: GuardArgs) => context.job?.state === 'cancelled' && context.job.chosenCount === 0,
  cancelled: jobIn('cancelled'),
  interrupted: jobIn('interrupted'),
  hasNextPage: ({ context }: GuardArgs) => context.page + 1 < pageCount(context),
  hasPreviousPage: ({ context }: GuardArgs) => context.page > 0,
  /** Leaving out is undone at any time; a profile is left out only when its row is on the page and could be added. */
  canToggle: ({ context, event }: GuardArgs) => {
    assertEvent(event, 'profile.toggle');
    if (context.excluded.has(event.index)) return true;
    const row = context.rows.find((r) => r.index === event.index);
    return row !== undefined && toggleable(row);
  },
  /** Both rows on the page, read with heights and not left out; or any row kept apart again. */
  canJoin: ({ context, event }: GuardArgs) => {
    assertEvent(event, 'replicate.join');
    if (event.with === null) return true;
    const ok = (index: number) => {
      const row = context.rows.find((r) => r.index === index);
      return row !== undefined && joinable(row) && !context.excluded.has(index);
    };
    return event.with !== event.index && ok(event.index) && ok(event.with);
  },
  /** The kit changes while the page shows rows read with peak heights, whose warnings depend on it. */
  kitChangedUnderHeights: ({ context, event }: GuardArgs) => {
    assertEvent(event, 'assignment.change');
    const { chemistryId } = event.patch;
    return chemistryId !== undefined && chemistryId !== context.assignment.chemistryId && context.rows.some((r) => (r.replicates?.length ?? 0) > 0);
  },
  pageHasAddable: ({ context }: GuardArgs) => context.rows.some((r) => toggleable(r) && !context.excluded.has(r.index)),
  canConfirm: ({ context }: GuardArgs) => confirmBlockers(context).length === 0,
  /** The job as last read offers no approval: it ran out while the preview was open. */
  approvalMissing: ({ context }: GuardArgs) => context.token === null,
  approvalExpired: (_: GuardArgs, params: { error: unknown }) => toImportError(params.error).approval === 'expired',
  approvalRefused: (_: GuardArgs, params: { error: unknown }) => toImportError(params.error).approval !== undefined,
  /** A job exists and is not running: starting over discards it. */
  hasSettledJob: ({ context }: GuardArgs) => context.job !== null && !IMPORT_RUNNING_STATES.has(context.job.state),
  /** The file of the job is still at hand (a job continued from the list came without one). */
  hasFile: ({ context }: GuardArgs) => context.file !== null,
  /** The listed import named by the event: still listed (any unfinished state may be continued). */
  unfinishedListed: ({ context, event }: GuardArgs) => listedJob(context, event) !== undefined,
  unfinishedInterrupted: ({ context, event }: GuardArgs) => listedJob(context, event)?.state === 'interrupted',
  /** The server discards only an import that is not running (409 otherwise: cancel it first). */
  unfinishedSettled: ({ context, event }: GuardArgs) => {
    const job = listedJob(context, event);
    return job !== undefined && !IMPORT_RUNNING_STATES.has(job.state);
  },
};
