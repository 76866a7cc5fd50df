import type { ProfileImportJob } from '../../core/schemas/profile-imports';
import type { ProgressMark } from '../../machines/profileImport.machine';
import { formatCount } from './import-preview';

/** A duration in words: `45 s`, `7 min 5 s`, `1 h 16 min` (whole seconds; shorter is not worth showing). */
export function durationText(seconds: number): string {
  const s = Math.max(1, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

const seconds = (from: string, to: string) => (new Date(to).getTime() - new Date(from).getTime()) / 1000;

/**
 * How fast the running phase goes and how long it has left, from the job's counts at the phase's first read
 * (`since`) and now, both by the server's clock (`updatedAt`): `(1,250 a second, about 48 s left)`; empty
 * until two reads of the phase show progress.
 */
export function rateText(job: Pick<ProfileImportJob, 'state' | 'done' | 'total' | 'updatedAt'>, since: ProgressMark | null): string {
  if (!since || since.state !== job.state) return '';
  const elapsed = seconds(since.at, job.updatedAt);
  const gained = job.done - since.done;
  if (elapsed <= 0 || gained <= 0) return '';
  const perSecond = gained / elapsed;
  const rate = perSecond >= 1 ? `${formatCount(Math.round(perSecond))} a second` : `${formatCount(Math.round(perSecond * 60))} a minute`;
  const left = job.total > job.done ? `, about ${durationText((job.total - job.done) / perSecond)} left` : '';
  return ` (${rate}${left})`;
}

/**
 * What a running job is doing, in words, with its counts, rate and time left: reading the file (before the
 * worker has counted the profiles, only how long it has been reading), storing, checking or adding them.
 */
export function progressText(job: ProfileImportJob, since: ProgressMark | null): string {
  const counts = `${formatCount(job.done)} of ${formatCount(job.total)}`;
  const rate = rateText(job, since);
  if (job.state === 'parsing') {
    // The worker reads the whole file before it counts a profile; the heartbeat keeps updatedAt current.
    if (job.total === 0) return `Reading ${job.fileName} (${formatCount(Math.ceil(job.fileBytes / 1024))} kB)… for ${durationText(seconds(job.createdAt, job.updatedAt))}`;
    return `Reading ${job.fileName}… ${counts} profiles stored${rate}`;
  }
  if (job.state === 'checking') return `Checking… ${counts} profiles${rate}`;
  return `Adding… ${counts}${rate}`;
}
