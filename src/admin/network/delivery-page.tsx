import { useMemo, useState } from 'react';
import type { OutboxBacklog, OutboxEntry, OutboxList } from '../../../core/schemas/network-delivery';
import { toEditorError } from '../../../machines/recordEditor.machine';
import { useApi } from '../../app/api-provider';
import { routes } from '../../app/routes';
import { useDocumentTitle } from '../../app/use-document-title';
import { formatDateTime } from '../../cases/format';
import { LoadState } from '../../profiles/load-state';
import { useLoaded } from '../../profiles/use-loaded';
import { networkApi, type NetworkCalls } from './network-api';
// The table looks as on the service clients and access tokens pages.
import '../../account/account.css';

const ACTION: Record<OutboxEntry['action'], string> = { upload: 'Upload', reset: 'Reset', delete: 'Deletion (expungement)', decision: 'Candidate match decision' };
const STATE: Record<OutboxEntry['state'], string> = { waiting: 'Waiting', retrying: 'Retrying', failed: 'Failed', delivered: 'Delivered' };

function backlogSentence(b: OutboxBacklog): string {
  if (b.waiting === 0 && b.failed === 0) return 'Nothing is waiting: every change was delivered to the upper instance.';
  const parts = [`${b.waiting} waiting`];
  if (b.retrying > 0) parts.push(`${b.retrying} of them retrying after a failed attempt`);
  if (b.failed > 0) parts.push(`${b.failed} refused by the upper instance (retry once the cause is fixed)`);
  const oldest = b.oldestWaitingSeconds === null ? '' : `; the oldest has waited ${Math.ceil(b.oldestWaitingSeconds / 60)} min`;
  return `${parts.join(', ')}${oldest}.`;
}

/**
 * Administration → Network → Delivery (issue 32): the upload outbox toward the upper instance, what waits, what failed
 * and why, with Retry for an entry and Deliver now for everything due (the sender otherwise runs every 30 seconds).
 */
export function NetworkDeliveryPage() {
  const api = useApi();
  const calls = useMemo(() => networkApi(api), [api]);
  return <NetworkDeliveryView calls={calls} />;
}

/** The calls the delivery screen makes (stories pass fakes). */
export type DeliveryCalls = Pick<NetworkCalls, 'outbox' | 'deliverNow' | 'retry'>;

/** The delivery screen over its calls. */
export function NetworkDeliveryView({ calls }: { calls: DeliveryCalls }) {
  const loaded = useLoaded('network-outbox', () => calls.outbox());
  const [busy, setBusy] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const title = routes.NetworkDelivery.title;
  useDocumentTitle(title);

  const act = async (key: string, run: () => Promise<OutboxList | OutboxEntry>) => {
    setBusy(key);
    setFailure(null);
    try {
      const answer = await run();
      if ('items' in answer) loaded.replace(answer);
      else loaded.reload();
    } catch (err) {
      setFailure(toEditorError(err).message);
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className="page access-tokens" aria-labelledby="page-title">
      <div className="page__header">
        <h1 id="page-title">{title}</h1>
        <button type="button" className="button button--primary" disabled={busy !== null} aria-busy={busy === 'deliver'} onClick={() => void act('deliver', () => calls.deliverNow())}>
          {busy === 'deliver' ? 'Delivering…' : 'Deliver now'}
        </button>
      </div>
      <p>
        Approved profiles the upload rules accept, and the resets and deletions of profiles sent before, travel to the upper instance in signed batches. A
        failed attempt is retried with a growing wait; an entry the upper instance refused waits here for you.
      </p>
      {failure ? (
        <p className="notice notice--negative" role="alert">
          {failure}
        </p>
      ) : null}
      <LoadState loaded={loaded} missing="The outbox could not be read.">
        {(list) => (
          <>
            <p role="status">{backlogSentence(list.backlog)}</p>
            {list.items.length === 0 ? (
              <p>Nothing has been sent to the upper instance yet.</p>
            ) : (
              <div className="access-tokens__table-scroll">
                <table className="access-tokens__table">
                  <caption className="visually-hidden">Outbox</caption>
                  <thead>
                    <tr>
                      <th scope="col">Profile</th>
                      <th scope="col">Laboratory</th>
                      <th scope="col">Change</th>
                      <th scope="col">Queued</th>
                      <th scope="col">State</th>
                      <th scope="col">Attempts</th>
                      <th scope="col">Why</th>
                      <th scope="col">
                        <span className="visually-hidden">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {list.items.map((entry) => (
                      <tr key={entry.id}>
                        <th scope="row">{entry.specimenId}</th>
                        <td>{entry.laboratory}</td>
                        <td>{ACTION[entry.action]}</td>
                        <td>{formatDateTime(entry.createdAt)}</td>
                        <td>{entry.state === 'delivered' && entry.deliveredAt ? `Delivered ${formatDateTime(entry.deliveredAt)}` : STATE[entry.state]}</td>
                        <td>{entry.attempts}</td>
                        <td>{entry.state === 'delivered' ? null : entry.lastError}</td>
                        <td>
                          {entry.state === 'failed' || entry.state === 'retrying' ? (
                            <button type="button" className="button button--secondary" disabled={busy !== null} onClick={() => void act(entry.id, () => calls.retry(entry.id))} aria-label={`Retry ${entry.specimenId}`}>
                              {busy === entry.id ? 'Retrying…' : 'Retry'}
                            </button>
                          ) : null}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </>
        )}
      </LoadState>
    </section>
  );
}
