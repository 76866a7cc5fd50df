import { asc, inArray } from 'drizzle-orm';
import { CODIS_CORE_LOCI } from '../../core/network/codis-core-loci';
import { STALE_RECORD_MESSAGE } from '../../core/schemas/list';
import type { UploadEligibilityRules, UploadEligibilityRulesUpdate } from '../../core/schemas/upload-eligibility';
import type { Db } from '../db/database';
import { uploadEligibilityIndexes } from '../db/schema';
import { updateVersioned } from '../db/versioned';
import { BadRequest, Conflict } from '../errors';

type IndexRow = typeof uploadEligibilityIndexes.$inferSelect;

const toRules = (rows: readonly IndexRow[]): UploadEligibilityRules => ({
  coreLoci: [...CODIS_CORE_LOCI],
  indexes: rows.map((r) => ({
    id: r.id,
    version: r.version,
    name: r.name,
    sampleTypes: r.sampleTypes as UploadEligibilityRules['indexes'][number]['sampleTypes'],
    minCoreLoci: r.minCoreLoci,
    maxAllelesPerLocus: r.maxAllelesPerLocus,
    rarityOneIn: r.rarityOneIn,
    updatedAt: r.updatedAt.toISOString(),
  })),
});

/** The level's upload rules: every index in display order, with the core loci they count. */
export async function loadUploadRules(db: Db): Promise<UploadEligibilityRules> {
  return toRules(await db.select().from(uploadEligibilityIndexes).orderBy(asc(uploadEligibilityIndexes.position), asc(uploadEligibilityIndexes.name)));
}

/**
 * Saves the whole rule set in the caller's transaction: every stored index must be sent once with the version its
 * editor read (an unknown or missing index is 400, a stale version 409, and nothing is written). Rows are locked
 * first, so "before" is the state this save replaces. Returns the rules before and after.
 */
export async function saveUploadRules(tx: Db, update: UploadEligibilityRulesUpdate): Promise<{ before: UploadEligibilityRules; after: UploadEligibilityRules }> {
  const ids = update.indexes.map((i) => i.id);
  await tx.select({ id: uploadEligibilityIndexes.id }).from(uploadEligibilityIndexes).where(inArray(uploadEligibilityIndexes.id, ids)).for('update');
  const before = await loadUploadRules(tx);
  const stored = new Map(before.indexes.map((i) => [i.id, i]));
  const errors = update.indexes.flatMap((i, at) => (stored.has(i.id) ? [] : [{ path: `/indexes/${at}/id`, message: 'No such index (it may have been removed)' }]));
  const sent = new Set(ids);
  if (sent.size !== ids.length) errors.push({ path: '/indexes', message: 'An index is sent more than once' });
  const missing = before.indexes.filter((i) => !sent.has(i.id)).map((i) => i.name);
  if (missing.length > 0) errors.push({ path: '/indexes', message: `Every index must be sent; missing: ${missing.join(', ')}` });
  if (errors.length > 0) throw new BadRequest('The upload rules were not saved: correct the marked fields', errors);
  if (update.indexes.some((i) => stored.get(i.id)!.version !== i.version)) throw new Conflict(STALE_RECORD_MESSAGE);
  for (const { id, version, ...values } of update.indexes) {
    const current = stored.get(id)!;
    const unchanged =
      current.minCoreLoci === values.minCoreLoci &&
      current.maxAllelesPerLocus === values.maxAllelesPerLocus &&
      current.rarityOneIn === values.rarityOneIn &&
      current.sampleTypes.join('\u0000') === values.sampleTypes.join('\u0000');
    // An index left as it was keeps its version and its time of change.
    if (!unchanged) await updateVersioned(tx, uploadEligibilityIndexes, id, version, values, 'index');
  }
  return { before, after: await loadUploadRules(tx) };
}

