import { z } from 'zod';
import { Id } from './common';
import { Versioned } from './list';
import { requiredText } from './named-record';

/** Most records one bulk call decides: a reviewer's screenful, and a call that answers in seconds. */
export const BULK_REVIEW_LIMIT = 200;

/** One record of a bulk decision: which, and the version the reviewer saw (stale → refused with 409). */
export const BulkReviewItem = z.object({ id: Id, version: Versioned.shape.version });
export type BulkReviewItem = z.infer<typeof BulkReviewItem>;

const items = z
  .array(BulkReviewItem)
  .min(1, 'Choose at least one record')
  .max(BULK_REVIEW_LIMIT, `At most ${BULK_REVIEW_LIMIT} records at once`)
  .refine((list) => new Set(list.map((i) => i.id)).size === list.length, 'Each record may be named once');

const comments = z.string().max(4000, 'At most 4000 characters').default('');

/**
 * Approve or reject several pending profiles (issue 18). An approval keeps each profile's stored marker
 * values as they are (the single approval sends the values the reviewer confirmed); a rejection needs a reason.
 */
export const BulkProfileReviewBody = z.discriminatedUnion('action', [
  z.object({ action: z.literal('approve'), items, comments }),
  z.object({ action: z.literal('reject'), items, reason: requiredText(4000) }),
]);
export type BulkProfileReviewBody = z.infer<typeof BulkProfileReviewBody>;

/** Publish (optionally notifying the cases' assigned users) or reject several pending hits; a rejection needs a reason. */
export const BulkHitDecisionBody = z.discriminatedUnion('action', [
  z.object({ action: z.literal('publish'), items, comments, notify: z.boolean().default(false) }),
  z.object({ action: z.literal('reject'), items, reason: requiredText(4000) }),
]);
export type BulkHitDecisionBody = z.infer<typeof BulkHitDecisionBody>;

/** What became of one record: decided, or refused with the status and message its single call would have answered. */
export const BulkReviewOutcome = z
  .object({ id: Id, outcome: z.enum(['done', 'refused']), status: z.number().int(), message: z.string() })
  .meta({ id: 'BulkReviewOutcome' });
export type BulkReviewOutcome = z.infer<typeof BulkReviewOutcome>;

/** A bulk call's answer: every record's outcome in the order sent, and the counts. */
export const BulkReviewResult = z
  .object({ done: z.number().int(), refused: z.number().int(), results: z.array(BulkReviewOutcome) })
  .meta({ id: 'BulkReviewResult' });
export type BulkReviewResult = z.infer<typeof BulkReviewResult>;
