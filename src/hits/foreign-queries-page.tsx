import { useId, useMemo, useState } from 'react';
import { Link } from 'wouter';
import { RELEASE_STATUSES, type ReleaseRequest, type ReleaseStatus } from '../../core/schemas/foreign-queries';
import { toEditorError } from '../../machines/recordEditor.machine';
import { useApi } from '../app/api-provider';
import { routes } from '../app/routes';
import { useDocumentTitle } from '../app/use-document-title';
import { formatDateTime } from '../cases/format';
import { LoadState } from '../profiles/load-state';
import { useLoaded } from '../profiles/use-loaded';
import { ConfirmDialog } from '../ui/confirm-dialog';
import { foreignQueriesApi, type ForeignQueryCalls } from './foreign-queries-api';
// The table looks as on the access tokens and service clients pages.
import '../account/account.css';

const STATUS_LABELS: Record<ReleaseStatus, string> = { pending: 'Waiting for a decision', released: 'Released', refused: 'Refused' };
const STRINGENCY_LABELS = { high: 'High', moderate: 'Moderate' } as const;

/** What the reviewer is about to decide: release as is, or refuse with the reason typed. */
type Deciding = { request: ReleaseRequest; decision: 'release' } | { request: ReleaseRequest; decision: 'refuse' };

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
    <section className="page access-tokens" aria-labelledby="page-title">
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
  const [deciding, setDeciding] = useState<Deciding | null>(null);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const reasonId = useId();
  const open = (request: ReleaseRequest, decision: Deciding['decision']) => {
    setReason('');
    setDeciding({ request, decision });
  };
  const decide = async () => {
    if (!deciding) return;
    setBusy(true);
    setFailure(null);
    try {
      if (deciding.decision === 'release') await calls.release(deciding.request);
      else await calls.refuse(deciding.request, reason);
      onDecided();
    } catch (err) {
      setFailure(toEditorError(err).message);
    } finally {
      setDeciding(null);
      setBusy(false);
    }
  };
  const target = deciding?.request;
  return (
    <>
      {failure ? (
        <p className="notice notice--negative" role="alert">
          {failure}
        </p>
      ) : null}
      {requests.length === 0 ? (
        <p>There are no release requests here.</p>
      ) : (
        <div className="access-tokens__table-scroll">
          <table className="access-tokens__table">
            <thead>
              <tr>
                <th scope="col">Reference</th>
                <th scope="col">From</th>
                <th scope="col">Received</th>
                <th scope="col">Stringency</th>
                <th scope="col">Candidates</th>
                <th scope="col">Profile</th>
                <th scope="col">Status</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
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
                  <td>
                    {r.status === 'pending' ? (
                      <>
                        <button type="button" className="button button--primary" onClick={() => open(r, 'release')}>
                          Release
                        </button>{' '}
                        <button type="button" className="button button--danger" onClick={() => open(r, 'refuse')}>
                          Refuse
                        </button>
                      </>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ConfirmDialog
        open={deciding !== null}
        title={deciding?.decision === 'refuse' ? 'Refuse to release?' : 'Release the profile’s data?'}
        confirmLabel={deciding?.decision === 'refuse' ? 'Refuse' : 'Release'}
        busy={busy}
        confirmDisabled={deciding?.decision === 'refuse' && reason.trim() === ''}
        onConfirm={() => void decide()}
        onCancel={() => setDeciding(null)}
      >
        {deciding?.decision === 'refuse' ? (
          <div className="field">
            <label className="field__label" htmlFor={reasonId}>
              Reason (the sender is told)
            </label>
            <textarea id={reasonId} className="input input--multiline" rows={3} value={reason} disabled={busy} onChange={(e) => setReason(e.target.value)} />
          </div>
        ) : (
          <p>
            Send {target?.requestingInstance} ({target?.requestingCountry}) the specimen id, laboratory and genotypes of {target?.sampleName} for their query {target?.reference}? This cannot be undone.
          </p>
        )}
      </ConfirmDialog>
    </>
  );
}
