import { randomUUID } from 'node:crypto';
import { and, eq, isNotNull, isNull, ne, sql } from 'drizzle-orm';
import type { CandidateDecision } from '../../core/schemas/candidate-matches';
import type { OutboxBacklog, UploadAction } from '../../core/schemas/network-delivery';
import type { Clock } from '../clock';
import type { Db } from '../db/database';
import { cases, chemistries, organizations, profiles, uploadOutbox } from '../db/schema';
import { CmfExportRefused, profilesToCmf } from '../exports/profiles';
import { loadMatchProfile } from '../matching/load-indexes';
import { readInstanceSettings } from './instance-settings';
import { profileUploadEligibility } from './upload-eligibility';

/** Who a batch's CMF names as SUBMITBYUSERID: the instance, not a person (CMF 3.2 allows 20 characters). */
export const UPLOAD_SUBMITTER = 'LOCUS-UPLOAD';

/** The profile as the outbox needs it, read in the caller's transaction after its change. */
async function outboxProfile(tx: Db, profileId: string) {
  const [row] = await tx
    .select({ id: profiles.id, profileId: profiles.profileId, status: profiles.status, sampleType: profiles.sampleType, kind: profiles.kind, organizationId: profiles.organizationId, laboratory: organizations.name, caseNumber: cases.caseNumber, kit: chemistries.name })
    .from(profiles)
    .innerJoin(organizations, eq(organizations.id, profiles.organizationId))
    .innerJoin(cases, eq(cases.id, profiles.caseId))
    .innerJoin(chemistries, eq(chemistries.id, profiles.chemistryId))
    .where(eq(profiles.id, profileId));
  return row;
}

type Described = NonNullable<Awaited<ReturnType<typeof outboxProfile>>>;

/** The profile as one CMF 3.2 document (the exports' writer), or why it cannot be written. */
async function cmfOf(tx: Db, profile: Described, clock: Clock): Promise<{ cmf: string } | { error: string }> {
  const match = await loadMatchProfile(tx, profile.id);
  const markerValues = [...(match?.genotypes ?? new Map<string, readonly string[]>())].map(([marker, alleles]) => ({ marker, alleles }));
  try {
    const cmf = profilesToCmf([{ profileId: profile.profileId, sampleType: profile.sampleType, kind: profile.kind, chemistryName: profile.kit, caseNumber: profile.caseNumber, markerValues }], {
      sourceLab: profile.laboratory,
      submitByUserId: UPLOAD_SUBMITTER,
      submitDateTime: clock.now(),
    });
    return { cmf };
  } catch (err) {
    if (err instanceof CmfExportRefused) return { error: err.message };
    throw err;
  }
}

/** Whether an upload of this profile was ever queued: only then do its reset and deletion travel up. */
async function wasSent(tx: Db, profileId: string): Promise<boolean> {
  const [row] = await tx.select({ id: uploadOutbox.id }).from(uploadOutbox).where(and(eq(uploadOutbox.profileId, profileId), eq(uploadOutbox.action, 'upload'))).limit(1);
  return row !== undefined;
}

/**
 * Queues a profile's change for the upper instance, in the caller's transaction (the transaction of the change, so
 * the change and its entry commit together or not at all; ARCHITECTURE.md "A network of laboratories"). Only with an
 * upper instance configured; an approval only when the profile is eligible under the level's upload rules
 * (upload-eligibility.ts, kept at this instance as the upper level sets them); a reset or deletion only of a profile
 * whose upload was queued before. Call it after the
 * change and, for a deletion, before the row goes. A profile whose CMF cannot be written is queued as refused, with
 * the writer's reasons, so it shows on the delivery screen instead of being silently left behind.
 */
export async function queueUpload(tx: Db, clock: Clock, profileId: string, action: UploadAction): Promise<void> {
  const settings = await readInstanceSettings(tx);
  if (!settings.upperUrl) return;
  const profile = await outboxProfile(tx, profileId);
  if (!profile) return;
  if (action === 'upload') {
    const verdict = await profileUploadEligibility(tx, profile);
    if (!verdict.eligible) return;
  } else if (!(await wasSent(tx, profileId))) return;
  // An entry the upper instance refused (nothing of it applied there) is superseded by this later change: retried
  // after it, its stale content would undo the change there.
  await tx.delete(uploadOutbox).where(and(eq(uploadOutbox.profileId, profileId), ne(uploadOutbox.action, 'decision'), isNotNull(uploadOutbox.refusedAt), isNull(uploadOutbox.deliveredAt)));
  const base = { idempotencyKey: randomUUID(), action, profileId, organizationId: profile.organizationId, laboratory: profile.laboratory, specimenId: profile.profileId };
  if (action !== 'upload') {
    await tx.insert(uploadOutbox).values(base);
    return;
  }
  const written = await cmfOf(tx, profile, clock);
  if ('error' in written) await tx.insert(uploadOutbox).values({ ...base, refusedAt: clock.now(), lastError: written.error });
  else await tx.insert(uploadOutbox).values({ ...base, payload: { cmf: written.cmf, kit: profile.kit, caseNumber: profile.caseNumber } });
}

/**
 * Queues a laboratory's decision on a candidate match for the upper instance, in the decision's transaction (issue
 * 32): it travels in the next batch, after any earlier entry of the same profile.
 */
export async function queueCandidateDecision(tx: Db, match: { profileId: string; organizationId: string; laboratory: string; specimenId: string }, decision: CandidateDecision): Promise<void> {
  await tx.insert(uploadOutbox).values({ idempotencyKey: randomUUID(), action: 'decision', ...match, payload: { decision } });
}

/**
 * The outbox's backlog for /api/health and the delivery screen, in one statement: the counts from
 * upload_outbox_counts (kept exact by migration 0029's trigger, a few rows however long the backlog), the oldest
 * waiting entry the first of one of two partial indexes. Exact at the statement's snapshot, as the counts it replaced.
 * The oldest is asked as `order by created_at limit 1`, not min(): PostgreSQL 15 plans min() over a table it has not
 * analyzed yet (bulk approvals, autovacuum not yet round) as an aggregate over every entry of the partial index, so
 * each probe read the whole backlog (1,443 buffers at 10,000 waiting in the replication bench, ten times that at
 * 100,000) while the sender wrote it; the limit reads the index's first live entry whatever the statistics say.
 */
export async function outboxBacklog(db: Db, clock: Clock): Promise<OutboxBacklog> {
  const { rows } = (await db.execute(sql`
    select
      coalesce(sum(n) filter (where state in ('waiting', 'retrying')), 0)::int as waiting,
      coalesce(sum(n) filter (where state = 'retrying'), 0)::int as retrying,
      coalesce(sum(n) filter (where state = 'failed'), 0)::int as failed,
      least(
        (select created_at from upload_outbox where delivered_at is null and refused_at is null and last_error is null order by created_at limit 1),
        (select created_at from upload_outbox where delivered_at is null and refused_at is null and last_error is not null order by created_at limit 1)
      ) as oldest
    from upload_outbox_counts`)) as unknown as { rows: { waiting: number; retrying: number; failed: number; oldest: string | Date | null }[] };
  const row = rows[0]!;
  const oldest = row.oldest ? new Date(row.oldest) : null;
  return {
    waiting: Number(row.waiting),
    retrying: Number(row.retrying),
    failed: Number(row.failed),
    oldestWaitingSeconds: oldest ? Math.max(0, Math.floor((clock.now().getTime() - oldest.getTime()) / 1000)) : null,
  };
}

/**
 * Folds upload_outbox_counts' deltas (one per changing statement) into one row per state, in one statement: the sender
 * calls it after each batch so the backlog reads a handful of rows. Two at once stay exact: the second skips the rows
 * the first deleted and folds only the rest.
 */
export async function compactBacklogCounts(db: Db): Promise<void> {
  await db.execute(sql`
    with gone as (delete from upload_outbox_counts returning state, n)
    insert into upload_outbox_counts (state, n) select state, sum(n) from gone group by state having sum(n) <> 0`);
}
