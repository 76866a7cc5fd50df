import { and, eq, inArray } from 'drizzle-orm';
import { uploadEligibility } from '../../core/network/upload-eligibility';
import type { ProfileUploadEligibility } from '../../core/schemas/upload-eligibility';
import type { Db } from '../db/database';
import { populations } from '../db/schema';
import { stringencyMatchProbability } from '../matching/chance-distribution';
import { loadMatchPopulations } from '../matching/load-search-inputs';
import { loadMatchProfile } from '../matching/load-indexes';
import type { MatchProfile } from '../matching/types';
import { organizationPopulationIds } from '../search/organization-populations';
import { readInstanceSettings } from './instance-settings';
import { loadUploadRules } from './upload-rules';

/** The profile being judged: its row's status, tenancy and kind. */
export interface JudgedProfile {
  id: string;
  status: string;
  sampleType: string;
  organizationId: string;
  kind: string;
}

/**
 * The profile's match probability as NDIS's match rarity reads it: the moderate-stringency probability that an
 * unrelated profile matches it (GENETICS.md "Expected chance hits"), the largest (most common) over the organization's
 * populations of its kind; the synthetic demo population is not casework and is left out. Null when no population
 * gives frequencies for any of its markers, or for a Y-STR profile (no CODIS core loci).
 */
async function matchProbabilityOf(db: Db, profile: MatchProfile): Promise<number | null> {
  if (profile.kind !== 'Autosomal') return null;
  const ids = await organizationPopulationIds(db, profile.organizationId, profile.kind);
  const synthetic = new Set(ids.length === 0 ? [] : (await db.select({ id: populations.id }).from(populations).where(and(inArray(populations.id, ids), eq(populations.synthetic, true)))).map((p) => p.id));
  const casework = await loadMatchPopulations(db, ids.filter((id) => !synthetic.has(id)));
  let largest: number | null = null;
  for (const population of casework) {
    const { probability, perMarker } = stringencyMatchProbability('moderate', profile.genotypes, population, { minMarkers: 0, maxMismatches: 0 });
    if (perMarker.length > 0) largest = Math.max(largest ?? 0, probability);
  }
  return largest;
}

/** Whether a stored profile may be uploaded to the upper level under the level's rules, and every reason it may not. */
export async function profileUploadEligibility(db: Db, row: JudgedProfile): Promise<ProfileUploadEligibility> {
  const rules = await loadUploadRules(db);
  const profile = await loadMatchProfile(db, row.id);
  const markers = [...(profile?.genotypes ?? new Map<string, readonly string[]>())].map(([marker, alleles]) => ({ marker, alleles }));
  const index = rules.indexes.find((i) => i.sampleTypes.includes(row.sampleType as never));
  // Computed only when the index asks for a rarity: the other indexes do not need the populations loaded.
  const matchProbability = profile && index?.rarityOneIn != null ? await matchProbabilityOf(db, profile) : null;
  const verdict = uploadEligibility({ sampleType: row.sampleType, status: row.status, markers, matchProbability }, rules.indexes, rules.coreLoci);
  const { upperUrl } = await readInstanceSettings(db);
  return { ...verdict, matchProbability, upperInstance: upperUrl !== null };
}
