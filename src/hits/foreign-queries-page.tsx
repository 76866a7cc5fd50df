import { useId, useMemo, useState } from 'react';
import { Link } from 'wouter';
import { RELEASE_STATUSES, type ReleaseRequest, type ReleaseStatus } from '../../core/schemas/foreign-queries';
import { useApi } from '../app/api-provider';
import { routes } from '../app/routes';
import { useDocumentTitle } from '../app/use-document-title';
import { formatDateTime } from '../cases/format';
import { LoadState } from '../profiles/load-state';
import { useLoaded } from '../profiles/use-loaded';
import { AlertNotice } from '../ui/alert-notice';
import { ReasonDialog } from '../ui/reason-dialog';
import { RecordTable } from '../ui/record-table';
import { useConfirmedAction } from '../ui/use-confirmed-action';
import { foreignQueriesApi, type ForeignQueryCalls } from './foreign-queries-api';

const STATUS_LABELS: Record<ReleaseStatus, string> = { pending: 'Waiting for a decision', released: 'Released', refused: 'Refused' };
const STRINGENCY_LABELS = { high: 'High', moderate: 'Moderate' } as const;

/** What the reviewer is about to decide: release as is, or refuse with the reason typed. */
interface Deciding {
  request: ReleaseRequest;
  decision: 'release' | 'refuse';
}

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
  const [reason, setReason] = useState('');
  const deciding = useConfirmedAction((d: Deciding) => (d.decision === 'release' ? calls.release(d.request) : calls.refuse(d.request, reason)), onDecided);
  const open = (request: ReleaseRequest, decision: Deciding['decision']) => {
    setReason('');
    deciding.ask({ request, decision });
  };
  const target = deciding.target;
  const refusing = target?.decision === 'refuse';
  return (
    <>
      <AlertNotice text={deciding.failure} />
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
      </RecordTable>
      <ReasonDialog
        open={target !== null}
        title={refusing ? 'Refuse to release?' : 'Release the profile’s data?'}
        confirmLabel={refusing ? 'Refuse' : 'Release'}
        busy={deciding.busy}
        reasonLabel={refusing ? 'Reason (the sender is told)' : null}
        reason={reason}
        onReason={setReason}
        onConfirm={() => void deciding.confirm()}
        onCancel={deciding.cancel}
      >
        <p>
          Send {target?.request.requestingInstance} ({target?.request.requestingCountry}) the specimen id, laboratory and genotypes of {target?.request.sampleName} for their query{' '}
          {target?.request.reference}? This cannot be undone.
        </p>
      </ReasonDialog>
    </>
  );
}
