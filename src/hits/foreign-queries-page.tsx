import { useId, useMemo, useState } from 'react';
import { Link } from 'wouter';
import { RELEASE_STATUSES, type ReleaseRequest, type ReleaseStatus } from '../../core/schemas/foreign-queries';
import { useApi } from '../app/api-provider';
import { routes } from '../app/routes';
import { useDocumentTitle } from '../app/use-document-title';
import { formatDateTime } from '../cases/format';
import { LoadState } from '../profiles/load-state';
import { useLoaded } from '../profiles/use-loaded';
import { DecisionButtons, type TwoWayDecision } from '../ui/decision-buttons';
import { RecordTable } from '../ui/record-table';
import { foreignQueriesApi, type ForeignQueryCalls } from './foreign-queries-api';

const STATUS_LABELS: Record<ReleaseStatus, string> = { pending: 'Waiting for a decision', released: 'Released', refused: 'Refused' };
const STRINGENCY_LABELS = { high: 'High', moderate: 'Moderate' } as const;

/**
 * Foreign queries (issue 32, Prüm II): profiles another country's instance sent that matched one of this laboratory's.
 * The sender was told only "hit", the stringency and the number of candidates; a reviewer (Hits Publish) releases the
 * profile's specimen id, laboratory and genotypes to it, or refuses with a reason the sender is told.
 */
export function ForeignQueriesPage({ orgId }: { orgId: string }) {
  const api = useApi();
  const calls = useMemo(() => foreignQueriesApi(api), [api]);
  const [status, setStatus] = useState<ReleaseStatus>('pending');
  const loaded = useLoaded(`release-requests/${orgId}/${status}`, () => calls.list(orgId, status));
  const title = routes.ForeignQueries.title;
  const statusId = useId();
  useDocumentTitle(title);
  return (
    <section className="page" aria-labelledby="page-title">
      <div className="page__header">
        <h1 id="page-title">{title}</h1>
      </div>
      <p>
        Another country’s instance sent these profiles, and each matched one of this laboratory’s. It was told only that there is a hit, at which stringency
        and with how many candidates. Releasing sends it the profile’s specimen id, laboratory and genotypes; refusing tells it your reason.
      </p>
      <div className="field">
        <label className="field__label" htmlFor={statusId}>
          Show
        </label>
        <select id={statusId} className="input" value={status} onChange={(e) => setStatus(e.target.value as ReleaseStatus)}>
          {RELEASE_STATUSES.map((s) => (
            <option key={s} value={s}>
              {STATUS_LABELS[s]}
            </option>
          ))}
        </select>
      </div>
      <section aria-labelledby="release-requests-title">
        <h2 id="release-requests-title">Release requests</h2>
        <LoadState loaded={loaded} missing="The release requests could not be found.">
          {(requests) => <RequestTable orgId={orgId} requests={requests} calls={calls} onDecided={loaded.reload} />}
        </LoadState>
      </section>
    </section>
  );
}

function RequestTable({ orgId, requests, calls, onDecided }: { orgId: string; requests: ReleaseRequest[]; calls: ForeignQueryCalls; onDecided(): void }) {
  const decision: TwoWayDecision<ReleaseRequest> = {
    agree: {
      label: 'Release',
      title: 'Release the profile’s data?',
      says: (r) => `Send ${r.requestingInstance} (${r.requestingCountry}) the specimen id, laboratory and genotypes of ${r.sampleName} for their query ${r.reference}? This cannot be undone.`,
      run: (r) => calls.release(r),
    },
    decline: { label: 'Refuse', title: 'Refuse to release?', reasonLabel: 'Reason (the sender is told)', run: (r, reason) => calls.refuse(r, reason) },
  };
  return (
    <DecisionButtons decision={decision} onDecided={onDecided}>
      {(buttonsOf) => (
        <RecordTable columns={['Reference', 'From', 'Received', 'Stringency', 'Candidates', 'Profile', 'Status']} actions empty="There are no release requests here." isEmpty={requests.length === 0}>
          {requests.map((r) => (
            <tr key={r.id}>
              <th scope="row">{r.reference}</th>
              <td>
                {r.requestingInstance} ({r.requestingCountry})
              </td>
              <td>{formatDateTime(r.receivedAt)}</td>
              <td>{STRINGENCY_LABELS[r.stringency]}</td>
              <td>{r.candidateCount}</td>
              <td>
                <Link href={routes.ProfilesView.href({ orgId: r.organizationId, caseId: r.caseId, sampleid: r.profileId })}>{r.sampleName}</Link> (case {r.caseNumber})
              </td>
              <td>{r.status === 'refused' && r.reason ? `Refused: ${r.reason}` : STATUS_LABELS[r.status]}</td>
              <td>{r.status === 'pending' ? buttonsOf(r) : null}</td>
            </tr>
          ))}
        </RecordTable>
      )}
    </DecisionButtons>
  );
}
