import { useEffect, useRef, useState } from 'react';
import { can } from '../../core/permissions';
import type { SearchJob } from '../../core/schemas/searches';
import { useApi } from '../app/api-provider';
import { useOrganizationEvents } from '../app/use-organization-events';
import { usePrincipal } from '../app/use-principal';
import { unwrap } from '../api/unwrap';

/** How often the list is read again while a search is queued or running and the event stream is down. */
export const SEARCH_POLL_MS = 2000;
/** Finished searches stay on screen this long, so a reviewer sees what the last approvals found. */
const RECENT_MS = 10 * 60_000;

const active = (job: SearchJob) => job.status === 'queued' || job.status === 'running';

function describe(job: SearchJob): string {
  switch (job.status) {
    case 'queued':
      return 'waiting';
    case 'running':
      return job.total > 0 ? `searching, ${job.done} of ${job.total} steps` : 'searching';
    case 'done':
      return job.hits === 1 ? 'done, 1 new hit' : `done, ${job.hits} new hits`;
    case 'failed':
      return `failed: ${job.error ?? 'unknown error'}`;
  }
}

const SEARCH_CHANGES = ['searches'] as const;

/**
 * The database searches that approvals started (issue 6: long runs show progress): each approved
 * profile's search with its steps done, then how many new hits it recorded. Read again when the
 * organization's searches change (issue 12: server-sent events, whoever approved); while that
 * stream is down, every SEARCH_POLL_MS as long as one runs, and `onFinished` then lets the hit list
 * below show the new hits (with the stream up, the list hears of them itself).
 */
export function SearchProgress({ orgId, onFinished }: { orgId: string; onFinished(): void }) {
  const api = useApi();
  const principal = usePrincipal();
  const reads = can(principal, 'Profiles', 'Read', { orgId });
  const [jobs, setJobs] = useState<SearchJob[]>([]);
  const [anyActive, setAnyActive] = useState(false);
  // Each change heard (or each poll) asks for one more read.
  const [readRequests, setReadRequests] = useState(0);
  const readAgain = () => setReadRequests((n) => n + 1);
  const status = useOrganizationEvents(reads && can(principal, 'Hits', 'Read', { orgId }) ? orgId : null, SEARCH_CHANGES, readAgain);
  const live = status === 'live';
  const liveNow = useRef(live);
  liveNow.current = live;
  const running = useRef(new Set<string>());
  const finished = useRef(onFinished);
  finished.current = onFinished;

  useEffect(() => {
    if (!reads) return;
    let current = true;
    const read = async () => {
      try {
        const list = await unwrap(api.GET('/api/organizations/{orgId}/searches', { params: { path: { orgId } } }));
        if (!current) return;
        const now = Date.now();
        const shown = list.items.filter((j) => active(j) || (j.finishedAt !== null && now - Date.parse(j.finishedAt) < RECENT_MS));
        // A search seen running that has now finished may have recorded hits the list does not show yet.
        const ended = [...running.current].some((id) => !list.items.some((j) => j.id === id && active(j)));
        running.current = new Set(list.items.filter(active).map((j) => j.id));
        setJobs(shown);
        setAnyActive(running.current.size > 0);
        if (ended && !liveNow.current) finished.current();
      } catch {
        // The API client has already said why; the panel keeps what it showed.
      }
    };
    void read();
    return () => {
      current = false;
    };
  }, [api, orgId, reads, readRequests]);

  // A search shown running may have moved on before the stream opened.
  const wasLive = useRef(live);
  useEffect(() => {
    if (live && !wasLive.current && running.current.size > 0) readAgain();
    wasLive.current = live;
  }, [live]);

  // Without the event stream, a running search is followed by reading every SEARCH_POLL_MS.
  useEffect(() => {
    if (live || !anyActive) return;
    const timer = setTimeout(readAgain, SEARCH_POLL_MS);
    return () => clearTimeout(timer);
  }, [live, anyActive, jobs]);

  if (jobs.length === 0) return null;
  return <SearchList jobs={jobs} />;
}

/** How many waiting and finished searches the panel lists before it counts the rest: a bulk approval starts hundreds. */
export const SEARCHES_SHOWN = 5;

function SearchItem({ job }: { job: SearchJob }) {
  return (
    <li>
      <span className="search-progress__sample">{job.sampleName}</span>: <span role="status">{describe(job)}</span>
      {job.status === 'running' && job.total > 0 ? <progress value={job.done} max={job.total} aria-label={`Search of ${job.sampleName}`} /> : null}
    </li>
  );
}

const finishedTime = (job: SearchJob) => (job.finishedAt === null ? 0 : Date.parse(job.finishedAt));

/**
 * The searches as listed: every running one, the first waiting ones with a count of the rest, and the latest
 * finished ones with "N more finished searches" that lists the rest on demand, so 200 searches of a bulk approval
 * do not push the hit list thousands of pixels down.
 */
export function SearchList({ jobs }: { jobs: readonly SearchJob[] }) {
  const [allFinished, setAllFinished] = useState(false);
  const running = jobs.filter((j) => j.status === 'running');
  const waiting = jobs.filter((j) => j.status === 'queued');
  const finished = jobs.filter((j) => !active(j)).sort((a, b) => finishedTime(b) - finishedTime(a));
  const finishedShown = allFinished ? finished : finished.slice(0, SEARCHES_SHOWN);
  const moreWaiting = waiting.length - SEARCHES_SHOWN;
  const moreFinished = finished.length - finishedShown.length;
  return (
    <section className="search-progress" aria-labelledby="search-progress-title">
      <h2 id="search-progress-title">Database searches</h2>
      <ul>
        {[...running, ...waiting.slice(0, SEARCHES_SHOWN)].map((job) => (
          <SearchItem key={job.id} job={job} />
        ))}
        {moreWaiting > 0 ? <li>{moreWaiting === 1 ? '1 more search waiting' : `${moreWaiting} more searches waiting`}</li> : null}
        {finishedShown.map((job) => (
          <SearchItem key={job.id} job={job} />
        ))}
      </ul>
      {finished.length > SEARCHES_SHOWN ? (
        <button type="button" className="button button--secondary" aria-expanded={allFinished} onClick={() => setAllFinished((all) => !all)}>
          {allFinished ? 'Show only the latest finished searches' : moreFinished === 1 ? '1 more finished search' : `${moreFinished} more finished searches`}
        </button>
      ) : null}
    </section>
  );
}
