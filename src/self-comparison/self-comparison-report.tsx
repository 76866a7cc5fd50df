import { useEffect, useState } from 'react';
import { Link } from 'wouter';
import type { SelfComparisonJob, SelfComparisonPair, SelfComparisonProfile } from '../../core/schemas/self-comparison';
import { routes } from '../app/routes';
import type { PairKindFilter, SelfComparisonCalls } from './self-comparison-api';
import { SelfComparisonActor } from './self-comparison-actor';

const PAGE_SIZE = 50;
const n = (x: number) => x.toLocaleString('en');
const plural = (count: number, one: string, many: string) => `${n(count)} ${count === 1 ? one : many}`;
const genotype = (g: readonly string[] | null) => (g ? g.join(', ') : 'not typed');

function Summary({ job }: { job: SelfComparisonJob }) {
  const seconds = job.elapsedMs === null ? '' : ` in ${(job.elapsedMs / 1000).toFixed(1)} s`;
  const left = [
    job.tooFewMarkers ? plural(job.tooFewMarkers, `profile with fewer than ${job.minEqualMarkers} typed markers`, `profiles with fewer than ${job.minEqualMarkers} typed markers`) : null,
    job.mixturesLeftOut ? plural(job.mixturesLeftOut, 'mixture', 'mixtures') : null,
  ].filter(Boolean);
  return (
    <p role="status">
      {job.chemistryName}: {plural(job.profilesCompared ?? 0, 'profile', 'profiles')} compared{seconds} — {plural(job.duplicateCount, 'duplicate', 'duplicates')}, {plural(job.nearDuplicateCount, 'near-duplicate', 'near-duplicates')} (up to {job.maxDifferences} differences, at least {job.minEqualMarkers} equal markers).
      {left.length > 0 ? ` Left out: ${left.join(', ')}.` : ''} Started by {job.startedBy} at {new Date(job.startedAt).toLocaleString('en-GB')}.
    </p>
  );
}

function ProfileCell({ orgId, profile }: { orgId: string; profile: SelfComparisonProfile }) {
  return <Link href={routes.ProfilesView.href({ orgId, caseId: profile.caseId, sampleid: profile.id })}>{profile.sampleName}</Link>;
}

function PairRow({ orgId, pair }: { orgId: string; pair: SelfComparisonPair }) {
  return (
    <tr>
      <td>{pair.kind === 'duplicate' ? 'Duplicate' : `${pair.differences.length} ${pair.differences.length === 1 ? 'difference' : 'differences'}`}</td>
      <td>
        <ProfileCell orgId={orgId} profile={pair.first} />
      </td>
      <td>{pair.first.caseNumber}</td>
      <td>
        <ProfileCell orgId={orgId} profile={pair.second} />
      </td>
      <td>{pair.second.caseNumber}</td>
      <td>{pair.equalMarkers}</td>
      <td>
        {pair.differences.length === 0 ? (
          '—'
        ) : (
          <ul className="self-comparison__differences">
            {pair.differences.map((d) => (
              <li key={d.marker}>
                <strong>{d.marker}</strong>: {genotype(d.first)} / {genotype(d.second)}
              </li>
            ))}
          </ul>
        )}
      </td>
    </tr>
  );
}

/** The finished report: the summary, the pairs a page at a time (duplicates first), the CSV download. */
export function SelfComparisonReport({ orgId, calls }: { orgId: string; calls: SelfComparisonCalls }) {
  const job = SelfComparisonActor.useSelector((s) => (s.matches('report') ? s.context.job : null));
  const [kind, setKind] = useState<PairKindFilter>('all');
  const [page, setPage] = useState(0);
  const [rows, setRows] = useState<{ items: SelfComparisonPair[]; count: number } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [downloading, setDownloading] = useState(false);
  const jobId = job?.id;
  useEffect(() => {
    if (!jobId) return;
    let live = true;
    setFailure(null);
    calls.pairs(orgId, { page, pageSize: PAGE_SIZE, kind }).then(
      (r) => live && setRows(r),
      () => live && setFailure('The pairs could not be read. Try again.'),
    );
    return () => {
      live = false;
    };
  }, [calls, orgId, jobId, page, kind]);
  if (!job) return null;
  const download = async () => {
    setDownloading(true);
    try {
      await calls.download(orgId);
    } catch {
      setFailure('The CSV could not be downloaded. Try again.');
    } finally {
      setDownloading(false);
    }
  };
  const from = page * PAGE_SIZE;
  return (
    <section className="self-comparison__report" aria-label="Report">
      <Summary job={job} />
      {job.message ? <p className="notice">{job.message}</p> : null}
      {job.truncated ? <p className="notice">More pairs were found than the report keeps; the first ones are listed. Raise the equal-marker minimum or lower the differences allowed.</p> : null}
      <div className="self-comparison__toolbar">
        <label className="field field--inline">
          <span className="field__label">Show</span>
          <select
            className="input"
            value={kind}
            onChange={(e) => {
              setKind(e.target.value as PairKindFilter);
              setPage(0);
            }}
          >
            <option value="all">All pairs</option>
            <option value="duplicate">Duplicates</option>
            <option value="near-duplicate">Near-duplicates</option>
          </select>
        </label>
        <button type="button" className="button button--secondary" onClick={() => void download()} disabled={downloading || job.pairsFound === 0}>
          {downloading ? 'Downloading…' : 'Download CSV'}
        </button>
      </div>
      {failure ? (
        <p className="notice notice--negative" role="alert">
          {failure}
        </p>
      ) : null}
      {rows === null ? (
        <p aria-busy="true">Loading…</p>
      ) : rows.count === 0 ? (
        <p>No duplicates or near-duplicates: every pair differs at more than {job.maxDifferences} markers, or shares fewer than {job.minEqualMarkers} equal ones.</p>
      ) : (
        <>
          <table className="table self-comparison__table" aria-label="Self-comparison pairs">
            <thead>
              <tr>
                <th scope="col">Kind</th>
                <th scope="col">Profile 1</th>
                <th scope="col">Case 1</th>
                <th scope="col">Profile 2</th>
                <th scope="col">Case 2</th>
                <th scope="col">Equal markers</th>
                <th scope="col">Differing markers (1 / 2)</th>
              </tr>
            </thead>
            <tbody>
              {rows.items.map((pair) => (
                <PairRow key={`${pair.first.id}/${pair.second.id}`} orgId={orgId} pair={pair} />
              ))}
            </tbody>
          </table>
          <p className="self-comparison__pager">
            Pairs {n(from + 1)}–{n(Math.min(from + PAGE_SIZE, rows.count))} of {n(rows.count)}{' '}
            <button type="button" className="button button--secondary" disabled={page === 0} onClick={() => setPage(page - 1)}>
              Previous
            </button>{' '}
            <button type="button" className="button button--secondary" disabled={from + PAGE_SIZE >= rows.count} onClick={() => setPage(page + 1)}>
              Next
            </button>
          </p>
        </>
      )}
    </section>
  );
}

/** A cancelled or failed run: why, and that the form may start another. */
export function SelfComparisonStopped() {
  const job = SelfComparisonActor.useSelector((s) => (s.matches('stopped') ? s.context.job : null));
  if (!job) return null;
  return (
    <p className={`notice${job.state === 'failed' ? ' notice--negative' : ''}`} role="status">
      The comparison of {job.chemistryName} profiles {job.state === 'cancelled' ? 'was cancelled' : 'failed'}. {job.message}
    </p>
  );
}

/** A failed read or start: the server's message, and the way on. */
export function SelfComparisonFailure() {
  const actor = SelfComparisonActor.useActorRef();
  const error = SelfComparisonActor.useSelector((s) => (s.matches('loadFailed') || s.matches('startFailed') ? s.context.error : null));
  const loadFailed = SelfComparisonActor.useSelector((s) => s.matches('loadFailed'));
  if (!error) return null;
  return (
    <div className="notice notice--negative" role="alert">
      <p>{error.message}</p>
      {loadFailed ? (
        <button type="button" className="button button--secondary" onClick={() => actor.send({ type: 'load.retry' })}>
          Try again
        </button>
      ) : (
        <>
          <button type="button" className="button button--secondary" onClick={() => actor.send({ type: 'start.retry' })}>
            Try again
          </button>{' '}
          <button type="button" className="button button--secondary" onClick={() => actor.send({ type: 'failure.dismiss' })}>
            Dismiss
          </button>
        </>
      )}
    </div>
  );
}
