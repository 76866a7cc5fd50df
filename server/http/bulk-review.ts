import type { FastifyBaseLogger } from 'fastify';
import type { BulkReviewItem, BulkReviewResult } from '../../core/schemas/bulk-review';
import { HttpError } from '../errors';

/**
 * Applies one decision to each record in turn, each through its single call's own code and transaction, so a
 * refused record (stale, four-eyes, another organization's, already decided) blocks none of the others and
 * every record decided before a failure stays decided. `done` is the message of a record that went through.
 */
export async function decideEach(
  items: readonly BulkReviewItem[],
  decideOne: (item: BulkReviewItem) => Promise<unknown>,
  done: string,
  log: FastifyBaseLogger,
): Promise<BulkReviewResult> {
  const results: BulkReviewResult['results'] = [];
  for (const item of items) {
    try {
      await decideOne(item);
      results.push({ id: item.id, outcome: 'done', status: 200, message: done });
    } catch (err) {
      if (err instanceof HttpError && err.statusCode < 500) {
        results.push({ id: item.id, outcome: 'refused', status: err.statusCode, message: err.message });
        continue;
      }
      // Not the reviewer's doing: logged in full; the others are still decided and the answer says which.
      log.error({ err, id: item.id }, 'bulk review: a record could not be decided');
      results.push({ id: item.id, outcome: 'refused', status: 500, message: 'Not decided: the server failed on this record. Try it again on its own.' });
    }
  }
  const refused = results.filter((r) => r.outcome === 'refused').length;
  return { done: results.length - refused, refused, results };
}
