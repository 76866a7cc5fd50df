import type { FastifyBaseLogger } from 'fastify';
import { decideHit, type HitDecision } from '../../hits/decide-hit';
import type { AuthenticatedUser } from '../../identity/load-principal';
import type { OutboxSender } from '../../mail/outbox-sender';
import { auditActor } from '../audit-actor';
import { assertNoOwnProfileInHit } from '../four-eyes';
import type { RouteDeps } from '../route-deps';
import { findVisibleHit } from './hit-query';

/** What a decision on a hit left to do after its commit: which organization's lists changed, how many e-mails wait. */
export interface DecidedHit {
  organizationId: string;
  queued: number;
}

/**
 * One decision on a hit the user may see (404 otherwise): a publication is refused (403) to whoever entered one
 * of its profiles (four-eyes review); the workflow checks the state (409), the version (409) and a rejection's
 * reason (400) in decideHit's transaction, which audits it and queues its e-mails. The single calls and the
 * bulk one both come here.
 */
export async function decideVisibleHit({ db, clock, config }: Pick<RouteDeps, 'db' | 'clock' | 'config'>, user: AuthenticatedUser, id: string, decision: HitDecision): Promise<DecidedHit> {
  const hit = await findVisibleHit(db, user, id);
  // A hit no longer pending answers 409 in decideHit, whoever asks.
  if (decision.action === 'publish' && hit.status === 'pending') await assertNoOwnProfileInHit(db, user, hit);
  const { queued } = await decideHit(db, clock, auditActor(user), hit, decision, { publicUrl: config.publicUrl });
  return { organizationId: hit.organizationId, queued };
}

/** After decisions committed: each organization's open hit lists read again, and the queued e-mails go out. */
export function announceHitDecisions(decided: readonly DecidedHit[], events: RouteDeps['events'], sender: OutboxSender, log: FastifyBaseLogger): void {
  for (const organizationId of new Set(decided.map((d) => d.organizationId))) events?.publish(organizationId, 'hits');
  // SMTP delivery must not hold a transaction, and a failure is retried from the outbox.
  if (decided.some((d) => d.queued > 0)) void sender.deliverPending().catch((err: unknown) => log.error({ err }, 'e-mail delivery failed'));
}
