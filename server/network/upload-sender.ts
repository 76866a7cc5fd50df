import { randomUUID } from 'node:crypto';
import { and, asc, eq, getTableColumns, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { BatchAnswer, RefusedEntry, type UploadAction } from '../../core/schemas/network-delivery';
import { appendAudit, type AuditActor } from '../audit/audit-trail';
import type { Clock } from '../clock';
import type { Db } from '../db/database';
import { uploadOutbox } from '../db/schema';
import { serialRounds } from '../jobs/serial-rounds';
import type { OrganizationEvents } from '../events/organization-events';
import { workerPool } from '../jobs/worker-pool';
import type { BatchSignTask } from './batch-sign-worker';
import { fetchCandidateMatches } from './candidate-match-inbox';
import { readInstanceSettings } from './instance-settings';
import { openSecret } from './secret-box';
import { compactBacklogCounts } from './upload-outbox';
import { forgetUpperToken, unreachable, upperToken } from './upper-instance';

/** An entry as claimed: its payload as JSON text, parsed and signed on a worker thread (batch-sign-worker.ts), not here. */
type OutboxRow = Omit<typeof uploadOutbox.$inferSelect, 'payload'> & { payload: string };

// Not `new URL('./…', import.meta.url)` with the name inline: Vite rewrites that form (server/imports/profile-jobs.ts).
const SIGN_WORKER_FILE = './batch-sign-worker.ts';
const signWorker = new URL(SIGN_WORKER_FILE, import.meta.url);

/** The trail's name for this instance's own deliveries (no person acts). */
const INSTANCE_ACTOR: AuditActor = { id: null, name: 'Upload to the upper instance' };

/** How long a round holds the entries it claimed before another process may take them (a crashed sender's lease). */
export const LEASE_MS = 5 * 60_000;
/**
 * Entries per batch, the most a batch may hold (BatchContent): a batch is one transaction at the upper instance, a
 * dozen statements whatever its size, so each batch's round trips (claim, sign, POST, verify, apply, mark delivered)
 * are shared by 500 profiles rather than 50 (about 3 MB of CMF a batch; a refused entry sends the rest again at once).
 */
const BATCH = 500;
const FIRST_RETRY_MS = 30_000;
const LAST_RETRY_MS = 60 * 60_000;

/** The wait before the `attempts`-th retry: 30 s doubling up to an hour (exponential backoff). */
export const backoffMs = (attempts: number) => Math.min(LAST_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1));

export interface UploadSender {
  /** Sends what is due in batches; resolves with how many entries the upper instance took. */
  deliverPending(): Promise<number>;
  /** Sends in the background, now and every `intervalMs`, until stopped. */
  start(intervalMs?: number): void;
  /**
   * Sends the outbox now, in the background (a change just wrote an entry): the timed round stays, so a lost wake-up
   * waits for it at most. Wake-ups during a round make one more round, not one each.
   */
  wake(): void;
  stop(): Promise<void>;
}

/**
 * Claims due entries in one statement (a lease: attempts up, next attempt moved ahead), so two processes never send an
 * entry at once. An entry waits while an earlier one of its profile is still to be delivered and not due, so a
 * deletion never overtakes the upload it undoes.
 */
export async function claim(db: Db, now: Date): Promise<OutboxRow[]> {
  const due = or(isNull(uploadOutbox.nextAttemptAt), lte(uploadOutbox.nextAttemptAt, now));
  const earlierWaiting = sql`exists (select 1 from upload_outbox e where e.profile_id = ${uploadOutbox.profileId} and e.delivered_at is null and e.refused_at is null and e.id < ${uploadOutbox.id} and e.next_attempt_at > ${now})`;
  const ids = db
    .select({ id: uploadOutbox.id })
    .from(uploadOutbox)
    .where(and(isNull(uploadOutbox.deliveredAt), isNull(uploadOutbox.refusedAt), due, sql`not ${earlierWaiting}`))
    .orderBy(asc(uploadOutbox.id))
    .limit(BATCH)
    .for('update', { skipLocked: true });
  const { payload, ...columns } = getTableColumns(uploadOutbox);
  const rows = await db
    .update(uploadOutbox)
    .set({ attempts: sql`${uploadOutbox.attempts} + 1`, nextAttemptAt: new Date(now.getTime() + LEASE_MS) })
    .where(inArray(uploadOutbox.id, ids))
    .returning({ ...columns, payload: sql<string>`${payload}::text` });
  return rows.sort((a, b) => (a.id < b.id ? -1 : 1));
}

const toEntry = (row: OutboxRow): BatchSignTask['entries'][number] => ({
  entry: { idempotencyKey: row.idempotencyKey, action: row.action as UploadAction, profileId: row.profileId, laboratory: row.laboratory, specimenId: row.specimenId },
  payload: row.payload,
});

/** The refused entries an answer lists (details.refused); none when the batch was refused as a whole. */
function refusedEntries(body: unknown): RefusedEntry[] {
  const parsed = RefusedEntry.array().safeParse((body as { details?: { refused?: unknown } } | null)?.details?.refused);
  return parsed.success ? parsed.data : [];
}

/**
 * The background sender of the upload outbox (issue 32): takes due entries in batches, signs each batch
 * (batch-signature.ts), POSTs it to the upper instance's /api/network/batches with a client-credentials token, and
 * marks the entries delivered when it answers. On failure every entry of the batch keeps the error and waits by the
 * backoff; an entry the upper instance refused by name is set aside for an administrator and the rest go again at
 * once. The outbox is in the database, so a restart of either side resumes where it stopped; the idempotency keys let
 * the upper instance apply an entry sent twice (its answer lost) only once.
 */
export function createUploadSender(deps: { db: Db; clock: Clock; fetcher?: typeof fetch; onError?: (err: unknown) => void; events?: Pick<OrganizationEvents, 'publish'> }): UploadSender {
  const { db, clock } = deps;
  const fetcher = deps.fetcher ?? fetch;
  async function failed(rows: readonly OutboxRow[], error: string): Promise<void> {
    for (const row of rows) {
      await db.update(uploadOutbox).set({ lastError: error, nextAttemptAt: new Date(clock.now().getTime() + backoffMs(row.attempts)) }).where(eq(uploadOutbox.id, row.id));
    }
  }

  /**
   * Marks the entries delivered, and records in this instance's trail, with the upper instance's answer as the proof,
   * each deletion (expungement) and reset it applied: the change left the upper level too.
   */
  async function delivered(rows: readonly OutboxRow[], upperUrl: string, answer: BatchAnswer): Promise<void> {
    await db.transaction(async (tx) => {
      const t = tx as unknown as Db;
      await t.update(uploadOutbox).set({ deliveredAt: clock.now(), lastError: null, nextAttemptAt: null }).where(inArray(uploadOutbox.id, rows.map((r) => r.id)));
      const outcomes = new Map(answer.entries.map((e) => [e.idempotencyKey, e.outcome]));
      const travelled = rows.filter((r) => r.action !== 'upload');
      await appendAudit(
        t,
        INSTANCE_ACTOR,
        clock,
        ...travelled.map((r) => ({
          entity: 'Profile',
          entityId: r.profileId,
          action: r.action === 'delete' ? 'Expunged at the upper instance' : 'Reset at the upper instance',
          organizationId: r.organizationId,
          after: { upperInstance: upperUrl, specimenId: r.specimenId, laboratory: r.laboratory, batchId: answer.batchId, outcome: outcomes.get(r.idempotencyKey) ?? null },
        })),
      );
    });
  }

  /** Sends one batch: how many entries the upper instance took, and whether the rest may go again at once (some were refused by name). */
  async function send(rows: OutboxRow[], credentials: { url: string; clientId: string; clientSecret: string }): Promise<{ delivered: number; retryNow: boolean }> {
    let answer: Response;
    let body: unknown;
    try {
      const token = await upperToken(credentials, fetcher);
      const task: BatchSignTask = { batchId: randomUUID(), entries: rows.map(toEntry), clientId: credentials.clientId, clientSecret: credentials.clientSecret };
      const signed = (await workerPool(signWorker).run(task)) as Uint8Array<ArrayBuffer>;
      answer = await fetcher(`${credentials.url.replace(/\/+$/, '')}/api/network/batches`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
        body: signed,
        signal: AbortSignal.timeout(60_000),
      });
      body = await answer.json().catch(() => null);
    } catch (err) {
      // A kept token skips the sign-in that used to find the upper instance down: the batch's own call says so now.
      // fetch fails with a TypeError (refused, reset) or a DOMException (its timeout); anything else says what it is.
      const network = err instanceof TypeError || (err instanceof Error && err.name === 'TimeoutError');
      await failed(rows, network ? unreachable(err, `The upper instance at ${credentials.url.replace(/\/+$/, '')} could not be reached`) : err instanceof Error ? err.message : String(err));
      return { delivered: 0, retryNow: false };
    }
    if (answer.ok) {
      // Only the intake's answer counts: a 200 from something else (a proxy's page) is no delivery.
      const taken = BatchAnswer.safeParse(body);
      if (!taken.success) {
        await failed(rows, `${credentials.url} answered the batch with HTTP ${answer.status} but not as a Locus upper instance`);
        return { delivered: 0, retryNow: false };
      }
      await delivered(rows, credentials.url, taken.data);
      return { delivered: rows.length, retryNow: false };
    }
    if (answer.status === 401) forgetUpperToken(credentials);
    const error = typeof (body as { error?: unknown } | null)?.error === 'string' ? (body as { error: string }).error : `HTTP ${answer.status}`;
    // Nothing of the batch was applied: the entries refused by name wait for an administrator, the others go again now.
    const reasons = new Map(refusedEntries(body).map((r) => [r.idempotencyKey, r.error]));
    if (!rows.some((r) => reasons.has(r.idempotencyKey))) {
      await failed(rows, `The upper instance refused the batch: ${error}`);
      return { delivered: 0, retryNow: false };
    }
    for (const row of rows) {
      const reason = reasons.get(row.idempotencyKey);
      await db
        .update(uploadOutbox)
        .set(reason ? { refusedAt: clock.now(), lastError: reason, nextAttemptAt: null } : { nextAttemptAt: null })
        .where(eq(uploadOutbox.id, row.id));
    }
    return { delivered: 0, retryNow: true };
  }

  /** A round asked for by wake() and not yet begun: it sends the outbox only (the candidate matches wait for a full round). */
  let woken = false;

  async function round(): Promise<number> {
    const outboxOnly = woken;
    woken = false;
    const settings = await readInstanceSettings(db);
    if (!settings.upperUrl || !settings.upperClientId || !settings.upperClientSecret) return 0;
    const credentials = { url: settings.upperUrl, clientId: settings.upperClientId, clientSecret: await openSecret(db, settings.upperClientSecret) };
    let delivered = 0;
    for (let rows = await claim(db, clock.now()); rows.length > 0; rows = await claim(db, clock.now())) {
      const sent = await send(rows, credentials);
      // The batch's state changes left a delta or two in the backlog's counts: folded now, the backlog stays a few rows.
      await compactBacklogCounts(db);
      delivered += sent.delivered;
      if (sent.delivered === 0 && !sent.retryNow) break;
    }
    if (!outboxOnly) {
      // The upper instance down or failing loses nothing: its notices wait there until this instance says it stored them.
      try {
        for (const organizationId of await fetchCandidateMatches(db, clock, credentials, fetcher)) deps.events?.publish(organizationId, 'hits');
      } catch (err) {
        deps.onError?.(err);
      }
    }
    return delivered;
  }

  const rounds = serialRounds(round, deps.onError);
  const wake = () => {
    // One round waiting to begin covers every entry written before it begins.
    if (woken) return;
    woken = true;
    void rounds.run().catch((err: unknown) => deps.onError?.(err));
  };
  return { deliverPending: rounds.run, start: (intervalMs = 30_000) => rounds.start(intervalMs), stop: rounds.stop, wake };
}
