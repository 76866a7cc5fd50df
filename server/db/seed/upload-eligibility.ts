import type { SampleType } from '../../../core/schemas/profiles';
import type { Db } from '../database';
import { uploadEligibilityIndexes } from '../schema';

interface SeedIndex {
  name: string;
  sampleTypes: SampleType[];
  minCoreLoci: number;
  maxAllelesPerLocus: number;
  rarityOneIn: number | null;
}

/** NDIS's match rarity for forensic profiles: a moderate-stringency match probability under 1 in 10 million. */
export const NDIS_RARITY_ONE_IN = 1e7;

/**
 * The seed upload rules, modelled on the NDIS indexes and acceptance criteria of the FBI's NDIS Operational Procedures
 * Manual: offender and arrestee profiles typed at all 20 CODIS core loci with at most 2 alleles per locus (NDIS files
 * a tri-allelic offender under a category of its own); forensic unknowns and mixtures with at least 8 core loci and a
 * match rarity under 1 in 10 million, mixtures with at most 4 alleles per locus; missing persons, unidentified
 * remains and their relatives as missing-person indexes. Known suspects, victims, elimination and other references
 * stay at the laboratory: no index takes them. Administrators with scope All edit these.
 */
export const SEED_UPLOAD_INDEXES: readonly SeedIndex[] = [
  { name: 'Convicted Offender', sampleTypes: ['Convicted Offender'], minCoreLoci: 20, maxAllelesPerLocus: 2, rarityOneIn: null },
  { name: 'Arrestee', sampleTypes: ['Arrestee'], minCoreLoci: 20, maxAllelesPerLocus: 2, rarityOneIn: null },
  { name: 'Forensic Unknown', sampleTypes: ['Forensic, Unknown'], minCoreLoci: 8, maxAllelesPerLocus: 2, rarityOneIn: NDIS_RARITY_ONE_IN },
  { name: 'Forensic Mixture', sampleTypes: ['Forensic Mixture'], minCoreLoci: 8, maxAllelesPerLocus: 4, rarityOneIn: NDIS_RARITY_ONE_IN },
  { name: 'Missing Person', sampleTypes: ['Missing Person'], minCoreLoci: 8, maxAllelesPerLocus: 2, rarityOneIn: null },
  { name: 'Unidentified Human Remains', sampleTypes: ['Unidentified Human (Remains)'], minCoreLoci: 8, maxAllelesPerLocus: 2, rarityOneIn: null },
  {
    name: 'Relatives of Missing Person',
    sampleTypes: ['Biological Mother', 'Biological Father', 'Biological Child', 'Biological Sibling', 'Alleged Father', 'Alleged Mother', 'Spouse'],
    minCoreLoci: 20,
    maxAllelesPerLocus: 2,
    rarityOneIn: null,
  },
];

/**
 * Writes the seed indexes a database lacks (a fresh one, or one created before issue 32); an index already there is
 * kept as an administrator left it. Idempotent (the unique name makes concurrent starts safe). Returns how many it wrote.
 */
export async function seedUploadEligibility(db: Db): Promise<number> {
  const added = await db
    .insert(uploadEligibilityIndexes)
    .values(SEED_UPLOAD_INDEXES.map((index, position) => ({ ...index, position })))
    .onConflictDoNothing({ target: uploadEligibilityIndexes.name })
    .returning({ id: uploadEligibilityIndexes.id });
  return added.length;
}
