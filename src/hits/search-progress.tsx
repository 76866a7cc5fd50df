import { useEffect, useRef, useState } from 'react';
import { can } from '../../core/permissions';
import type { SearchJob } from '../../core/schemas/searches';
import { useApi } from '../app/api-provider';
import { usePrincipal } from '../app/use-principal';
import { unwrap } from '../api/unwrap';

/** How often the list is read again while a search is queued or running. */
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

/**
 * The database searches that approvals started (issue 6: long runs show progress): each approved
 * profile's search with its steps done, then how many new hits it recorded. Read again every
 * SEARCH_POLL_MS while one runs; `onFinished` lets the hit list below show the new hits at once.
 */
export function SearchProgress({ orgId, onFinished }: { orgId: string; onFinished(): void }) {
  const api = useApi();
  const reads = can(usePrincipal(), 'Profiles', 'Read', { orgId });
  const [jobs, setJobs] = useState<SearchJob[]>([]);
  const running = useRef(new Set<string>());
  const finished = useRef(onFinished);
  finished.current = onFinished;

  useEffect(() => {
    if (!reads) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
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
        if (ended) finished.current();
        if (running.current.size > 0) timer = setTimeout(read, SEARCH_POLL_MS);
      } catch {
        // The API client has already said why; the panel keeps what it showed.
      }
    };
    void read();
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [api, orgId, reads]);

  if (jobs.length === 0) return null;
  return (
    <section className="search-progress" aria-labelledby="search-progress-title">
      <h2 id="search-progress-title">Database searches</h2>
      <ul>
        {jobs.map((job) => (
          <li key={job.id}>
            <span className="search-progress__sample">{job.sampleName}</span>: <span role="status">{describe(job)}</span>
            {job.status === 'running' && job.total > 0 ? <progress value={job.done} max={job.total} aria-label={`Search of ${job.sampleName}`} /> : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
