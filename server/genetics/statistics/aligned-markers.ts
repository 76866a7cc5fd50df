import { isComparable, normaliseMarkerAlleles, parseAllele } from '../../../core/alleles';
import type { EngineProfile, Genotype, PopulationFrequencies } from '../types';

/** Why a marker took no part in a comparison (GENETICS.md "Profiles and alleles": skipped and counted). */
export type SkipReason = 'missing' | 'lab marking' | 'mixture' | 'no frequencies' | 'mother inconsistent';

/** A marker left out of a comparison, and why. */
export interface SkippedMarker {
  marker: string;
  reason: SkipReason;
}

/** A marker every profile carries, with each profile's distinct comparable alleles in canonical order. */
export interface AlignedMarker {
  marker: string;
  genotypes: string[][];
}

/** The markers a comparison can use and those it skips. */
export interface AlignedProfiles {
  compared: AlignedMarker[];
  skipped: SkippedMarker[];
}

/** Options of alignProfiles. */
export interface AlignOptions {
  /** Most distinct alleles a genotype may hold (2 for single-source autosomal formulas, 4 for multi-copy Y markers). */
  maxAlleles: number;
  /** When given, a marker this population holds no frequencies for is skipped (Amelogenin, for instance). */
  population?: PopulationFrequencies;
}

/**
 * Lines up the markers of several profiles (GENETICS.md "Profiles and alleles"): a marker absent from
 * any profile is skipped as missing, one holding a lab marking (OL, <8) as not comparable, one with
 * more alleles than the formula takes as a mixture; markers follow the first profile's order.
 */
export function alignProfiles(profiles: readonly EngineProfile[], opts: AlignOptions): AlignedProfiles {
  const names = [...new Set(profiles.flatMap((p) => [...p.keys()]))];
  const compared: AlignedMarker[] = [];
  const skipped: SkippedMarker[] = [];
  for (const marker of names) {
    const reason = skipReason(marker, profiles, opts);
    if (reason) skipped.push({ marker, reason });
    else compared.push({ marker, genotypes: profiles.map((p) => normaliseMarkerAlleles(p.get(marker)!)) });
  }
  return { compared, skipped };
}

function skipReason(marker: string, profiles: readonly EngineProfile[], opts: AlignOptions): SkipReason | null {
  const genotypes = profiles.map((p) => p.get(marker));
  if (genotypes.some((g) => g === undefined || normaliseMarkerAlleles(g).length === 0)) return 'missing';
  if (genotypes.some((g) => g!.some((a) => a.trim() !== '' && !isComparable(parseAllele(a))))) return 'lab marking';
  if (genotypes.some((g) => normaliseMarkerAlleles(g!).length > opts.maxAlleles)) return 'mixture';
  if (opts.population && !opts.population.markers.has(marker)) return 'no frequencies';
  return null;
}

