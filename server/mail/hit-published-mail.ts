import type { Db } from '../db/database';
import { assignedRecipients, hitUrl, queueHitMail } from './hit-mail';

/** What the hit-published e-mail says about the hit. */
export interface PublishedHit {
  hitId: string;
  organizationId: string;
  caseIds: readonly string[];
  analysis: string;
  probability: string;
  publishedBy: string;
  comments: string;
}

/**
 * Renders the hit-published template for the case's assigned users who receive notifications and puts the
 * e-mails in the outbox, in the publishing transaction (ARCHITECTURE.md "States": notify). Returns how many were queued.
 */
export async function queueHitPublishedMail(tx: Db, hit: PublishedHit, opts: { publicUrl: string; at: Date }): Promise<number> {
  const values = { hitUrl: hitUrl(opts.publicUrl, hit), analysis: hit.analysis, probability: hit.probability, publishedBy: hit.publishedBy, comments: hit.comments };
  return queueHitMail(tx, 'hit-published', await assignedRecipients(tx, hit), values, opts.at);
}
