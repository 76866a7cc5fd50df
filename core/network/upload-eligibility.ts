import { formatScientific, superscript } from '../scientific-display';

/** One index of the upper level (NDIS's Convicted Offender, Forensic Unknown, …) and what it accepts. */
export interface EligibilityIndex {
  name: string;
  /** The sample types (CMF specimen categories) filed in this index; a sample type belongs to one index at most. */
  sampleTypes: readonly string[];
  /** How many of the core loci a profile must have typed. */
  minCoreLoci: number;
  /** The most alleles any one locus may carry. */
  maxAllelesPerLocus: number;
  /** The rarity threshold as "1 in N": the profile's match probability must be under 1/N; null: none. */
  rarityOneIn: number | null;
}

/** What eligibility needs to know about a profile. */
export interface EligibilityProfile {
  sampleType: string;
  /** Only approved profiles travel up (ARCHITECTURE.md "A network of laboratories"). */
  status: string;
  markers: readonly { marker: string; alleles: readonly string[] }[];
  /** Its match probability (moderate stringency, the most common of its populations); null when no population gives one. */
  matchProbability: number | null;
}

export interface UploadEligibilityVerdict {
  eligible: boolean;
  /** The index the profile would be filed in; null when its sample type is in none. */
  index: string | null;
  /** Each a sentence naming the markers or values at fault; empty when eligible. */
  reasons: string[];
}

/** "10⁷" for a power of ten, "3.1 × 10⁵" otherwise, plain below 10,000: how a "1 in N" reads. */
export function formatOneIn(n: number): string {
  const exponent = Math.round(Math.log10(n));
  if (n >= 1e4 && Math.abs(n / 10 ** exponent - 1) < 1e-9) return `10${superscript(exponent)}`;
  return formatScientific(n, 2);
}

const typed = (alleles: readonly string[]) => alleles.some((a) => a.trim() !== '');

function coreLociReason(index: EligibilityIndex, profile: EligibilityProfile, coreLoci: readonly string[]): string | null {
  const present = new Set(profile.markers.filter((m) => typed(m.alleles)).map((m) => m.marker.toLowerCase()));
  const missing = coreLoci.filter((locus) => !present.has(locus.toLowerCase()));
  const count = coreLoci.length - missing.length;
  if (count >= index.minCoreLoci) return null;
  const needs = index.minCoreLoci >= coreLoci.length ? `all ${coreLoci.length}` : `at least ${index.minCoreLoci}`;
  return `Missing core loci: ${missing.join(', ')} (${count} of ${coreLoci.length} typed; ${index.name} needs ${needs})`;
}

function rarityReason(index: EligibilityIndex, matchProbability: number | null): string | null {
  if (index.rarityOneIn === null) return null;
  const threshold = `1 in ${formatOneIn(index.rarityOneIn)}`;
  if (matchProbability === null) return `Match probability unknown (no population of the organization gives frequencies for its markers); ${index.name} needs it under the level's rarity threshold ${threshold}`;
  if (matchProbability * index.rarityOneIn < 1) return null;
  const figure = matchProbability > 0 ? `1 in ${formatOneIn(1 / matchProbability)}` : '0';
  return `Match probability ${figure} is above the level's rarity threshold ${threshold}`;
}

/**
 * Whether a profile may be uploaded to the upper level, and if not every reason why (issue 32; the rules modelled on
 * the FBI's NDIS Operational Procedures Manual: sample types per index, minimum core loci, maximum alleles per locus,
 * match rarity for forensic profiles). `coreLoci` are the level's core loci (the 20 expanded CODIS core loci).
 */
export function uploadEligibility(profile: EligibilityProfile, indexes: readonly EligibilityIndex[], coreLoci: readonly string[]): UploadEligibilityVerdict {
  const index = indexes.find((i) => i.sampleTypes.includes(profile.sampleType));
  if (!index) return { eligible: false, index: null, reasons: [`Sample type ${profile.sampleType} is not uploaded to this level`] };
  const reasons: string[] = [];
  if (profile.status !== 'approved') reasons.push(`The profile is ${profile.status}: only approved profiles are uploaded`);
  const core = coreLociReason(index, profile, coreLoci);
  if (core) reasons.push(core);
  for (const m of profile.markers) {
    const count = m.alleles.filter((a) => a.trim() !== '').length;
    if (count > index.maxAllelesPerLocus) reasons.push(`Too many alleles at ${m.marker}: ${count} (at most ${index.maxAllelesPerLocus})`);
  }
  const rarity = rarityReason(index, profile.matchProbability);
  if (rarity) reasons.push(rarity);
  return { eligible: reasons.length === 0, index: index.name, reasons };
}
