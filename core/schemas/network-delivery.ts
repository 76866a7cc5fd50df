import { z } from 'zod';
import { CandidateDecision } from './candidate-matches';
import { Id } from './common';

/**
 * What an outbox entry carries up (issue 32): a profile approved, reset (it leaves the index) or deleted (expunged), or
 * the laboratory's decision on a candidate match the upper level sent down.
 */
export const UPLOAD_ACTIONS = ['upload', 'reset', 'delete', 'decision'] as const;
export type UploadAction = (typeof UPLOAD_ACTIONS)[number];

/** One entry of a batch: its idempotency key, what to do, and the profile as the lower instance names it. */
export const BatchEntry = z.object({
  idempotencyKey: z.string().min(1).max(200),
  action: z.enum(UPLOAD_ACTIONS),
  /** The profile's id at the lower instance (its origin). */
  profileId: Id,
  laboratory: z.string().min(1).max(200),
  specimenId: z.string().min(1).max(200),
  /** An upload's profile as a CODIS CMF 3.2 document with one SPECIMEN. */
  cmf: z.string().optional(),
  /** An upload's kit (the chemistry's name), which the upper level must know. */
  kit: z.string().optional(),
  /** An upload's case number at the lower instance: the upper level files it in a case of that number under the laboratory. */
  caseNumber: z.string().max(200).optional(),
  /** A decision's candidate match, confirmed or rejected (with the reason). */
  decision: CandidateDecision.optional(),
});
export type BatchEntry = z.infer<typeof BatchEntry>;

/** The signed content of a batch (the JWS payload). */
export const BatchContent = z.object({ batchId: Id, entries: z.array(BatchEntry).min(1).max(500) });
export type BatchContent = z.infer<typeof BatchContent>;

/** POST /api/network/batches: the batch as a compact JWS (RFC 7515 §7.1). */
export const BatchBody = z.object({ batch: z.string().min(1, 'Send the batch as a compact JWS') }).meta({ id: 'NetworkBatchBody' });

export const BatchEntryOutcome = z.object({ idempotencyKey: z.string(), outcome: z.enum(['applied', 'already applied']) });

export const BatchAnswer = z
  .object({
    batchId: Id,
    /** 'already applied': this batch id was applied before and nothing was done again. */
    status: z.enum(['applied', 'already applied']),
    entries: z.array(BatchEntryOutcome),
  })
  .meta({ id: 'NetworkBatchAnswer' });
export type BatchAnswer = z.infer<typeof BatchAnswer>;

/** One entry the upper instance refused, with why: the answer's `details.refused` when a batch is refused. */
export const RefusedEntry = z.object({ idempotencyKey: z.string(), error: z.string() });
export type RefusedEntry = z.infer<typeof RefusedEntry>;

/** The outbox as /api/health and the delivery screen count it. */
export const OutboxBacklog = z
  .object({
    waiting: z.number().int().meta({ description: 'Entries not yet delivered to the upper instance (retrying ones included)' }),
    retrying: z.number().int().meta({ description: 'Waiting entries whose last attempt failed (the upper instance unreachable, or it failed)' }),
    failed: z.number().int().meta({ description: 'Entries the upper instance refused (unknown laboratory or kit, …): they wait for an administrator' }),
    oldestWaitingSeconds: z.number().int().nullable().meta({ description: 'Age of the oldest waiting entry; null when none waits' }),
  })
  .meta({ id: 'OutboxBacklog' });
export type OutboxBacklog = z.infer<typeof OutboxBacklog>;

export const OutboxEntry = z
  .object({
    id: Id,
    action: z.enum(UPLOAD_ACTIONS),
    profileId: Id,
    laboratory: z.string(),
    specimenId: z.string(),
    createdAt: z.iso.datetime(),
    attempts: z.number().int(),
    nextAttemptAt: z.iso.datetime().nullable(),
    lastError: z.string().nullable(),
    state: z.enum(['waiting', 'retrying', 'failed', 'delivered']),
    deliveredAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'OutboxEntry' });
export type OutboxEntry = z.infer<typeof OutboxEntry>;

export const OutboxList = z.object({ items: z.array(OutboxEntry), backlog: OutboxBacklog }).meta({ id: 'OutboxList' });
export type OutboxList = z.infer<typeof OutboxList>;
