import { useLoaded } from '../profiles/use-loaded';
import { Panel } from './panel';

/** What the panel lists of a published hit. */
export interface PublishedHitRow {
  id: string;
  date: string;
  analysisName: string;
  populationName: string | null;
  probability: string;
  /** Downloads its report (an authenticated call, src/ui/download.ts), when the hits area offers one. */
  download?: () => void;
}

/** Reads an organization's published hits (`all`: every organization reached). */
export type PublishedHitsSource = (orgId: string) => Promise<PublishedHitRow[]>;

const day = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium' });

/**
 * The published hits, downloadable (spec 2.2). The dashboard passes `source` (dashboardApi
 * publishedHits: the organization's hits filtered to published); without one it draws nothing.
 */
export function PublishedHitsPanel({ orgId, source }: { orgId: string; source?: PublishedHitsSource | undefined }) {
  return source ? <ConnectedPublishedHits orgId={orgId} source={source} /> : null;
}

function ConnectedPublishedHits({ orgId, source }: { orgId: string; source: PublishedHitsSource }) {
  const loaded = useLoaded(orgId, () => source(orgId));
  return (
    <Panel title="Published hits" loaded={loaded} isEmpty={(h) => h.length === 0} empty="No published hits yet.">
      {(hits) => (
        <ul className="dashboard-list">
          {hits.map((h) => (
            <li key={h.id}>
              <span className="dashboard-list__main">{h.analysisName}</span>{' '}
              <span className="dashboard-list__aside">
                {h.probability}
                {h.populationName ? ` · ${h.populationName}` : ''} · <time dateTime={h.date}>{day.format(new Date(h.date))}</time>
              </span>{' '}
              {h.download ? (
                <button type="button" className="button button--ghost" onClick={h.download} aria-label={`Download the ${h.analysisName} hit of ${day.format(new Date(h.date))}`}>
                  Download
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
