import { isAmelogenin } from '../../../core/alleles';
import type { Genotype, PopulationFrequencies } from '../types';
import { mixtureMarkerLikelihood, type MixtureHypothesisAtMarker, type MixtureModelParameters } from './mixture-likelihood';
import { hypothesisDropouts } from './hypothesis-dropouts';
import { OTHER_ALLELES, prepareMixtureMarker, type FrequencyRule, type PreparedMixtureMarker } from './mixture-marker';

/** Why a mixture cannot be weighed as asked, in the reader's words. */
export class MixtureError extends Error {}

/** A typed person's genotypes by marker. */
export type TypedProfile = ReadonlyMap<string, Genotype>;

/**
 * A mixture case (GENETICS.md "Mixtures"): Hp — the person of interest, the known contributors and unknowns; Hd —
 * the known contributors and one unknown more; the number of contributors is the same under both.
 */
export interface MixtureCase {
  /** The evidence: one or more replicates, each the alleles seen per marker (an empty list: nothing seen there). */
  replicates: readonly TypedProfile[];
  personOfInterest: TypedProfile;
  knownContributors: readonly TypedProfile[];
  contributors: number;
  /** Drop-out per contributor under Hp, in the order person of interest, known contributors, unknowns. */
  dropout: readonly number[];
  /**
   * Drop-out per contributor under Hd, in the order the unknown in the person of interest's place, known contributors,
   * other unknowns; by default LRmix's (hypothesisDropouts): every unknown takes the unknowns' value.
   */
  dropoutHd?: readonly number[] | undefined;
  dropIn: number;
  theta: number;
  /** Whether the person of interest's alleles enter θ's counts under Hd, as a typed non-contributor (default in LRmix and EuroForMix). */
  personOfInterestTypedUnderHd: boolean;
  population: PopulationFrequencies;
  frequencyRule: FrequencyRule;
}

/** One marker of a mixture result, with everything a reader needs to redo it. */
export interface MixtureMarkerResult {
  marker: string;
  /** The classes used: the seen alleles, then "other" (every other allele) when any frequency remains. */
  alleles: string[];
  frequencies: number[];
  /** Per replicate, the alleles seen. */
  replicates: string[][];
  /** Seen alleles the person of interest or a known contributor carries. */
  explained: string[];
  /** Alleles of the person of interest or a known contributor seen in no replicate (dropped out under Hp). */
  droppedOut: string[];
  /** Seen alleles no typed contributor carries: a drop-in, or (with unknowns under Hp) an unknown's. */
  unexplained: string[];
  unknownsHp: number;
  unknownsHd: number;
  likelihoodHp: number;
  likelihoodHd: number;
  lr: number;
}

export interface MixtureLrResult {
  markers: MixtureMarkerResult[];
  /** Evidence markers not weighed, and why (no frequencies, the person of interest not typed there, Amelogenin). */
  skipped: { marker: string; reason: string }[];
  lr: number;
  log10Lr: number;
}

/** Checks the case's shape once: counts of contributors and drop-outs, parameters in range. */
export function checkMixtureCase(c: Pick<MixtureCase, 'replicates' | 'knownContributors' | 'contributors' | 'dropout' | 'dropoutHd' | 'dropIn' | 'theta'>): void {
  if (c.replicates.length === 0) throw new MixtureError('Give at least one replicate of the evidence.');
  if (!Number.isInteger(c.contributors) || c.contributors < 1) throw new MixtureError('The number of contributors must be a whole number of at least 1.');
  if (c.knownContributors.length + 1 > c.contributors) throw new MixtureError(`Hp holds the person of interest and ${c.knownContributors.length} known contributor(s): the number of contributors must be at least ${c.knownContributors.length + 1}.`);
  if (c.dropout.length !== c.contributors) throw new MixtureError(`Give one drop-out probability per contributor (${c.contributors}), in the order person of interest, known contributors, unknowns.`);
  if (c.dropoutHd && c.dropoutHd.length !== c.contributors) throw new MixtureError(`Give one drop-out probability per contributor under Hd (${c.contributors}), in the order the unknown in the person of interest's place, known contributors, other unknowns.`);
  const hd = (c.dropoutHd ?? []).map((d, i) => [`drop-out of contributor ${i + 1} under Hd`, d] as const);
  for (const [name, value] of [...c.dropout.map((d, i) => [`drop-out of contributor ${i + 1}`, d] as const), ...hd, ['drop-in', c.dropIn] as const]) {
    if (!(value >= 0 && value < 1)) throw new MixtureError(`The ${name} must be at least 0 and below 1 (${value} given).`);
  }
  if (!(c.theta >= 0 && c.theta < 1)) throw new MixtureError(`θ must be at least 0 and below 1 (${c.theta} given).`);
}

/** The markers a mixture is weighed at: every marker of any replicate but Amelogenin (a sex marker, no frequencies). */
export function evidenceMarkers(replicates: readonly TypedProfile[]): string[] {
  return [...new Set(replicates.flatMap((r) => [...r.keys()]))].filter((m) => !isAmelogenin(m));
}

/**
 * Both hypotheses at one marker: Hp's contributors are the person of interest and the known contributors typed
 * here (a known contributor untyped here counts as an unknown with their drop-out); Hd's are the known ones, the
 * person of interest a typed non-contributor when `personOfInterestTypedUnderHd`.
 */
export function hypothesesAtMarker(prepared: PreparedMixtureMarker, marker: string, c: Omit<MixtureCase, 'replicates' | 'population' | 'frequencyRule'>, poiGenotype: Genotype | undefined): { hp: MixtureHypothesisAtMarker; hd: MixtureHypothesisAtMarker } {
  const known = c.knownContributors.length;
  const dropoutHd = c.dropoutHd ?? hypothesisDropouts(c.contributors, known, c.dropout).hd;
  // Each hypothesis's contributors at this marker: a known contributor untyped here is an unknown with their drop-out.
  const split = (dropout: readonly number[]) => {
    const typedKnown: { copies: Int32Array; dropout: number }[] = [];
    const untypedKnown: number[] = [];
    c.knownContributors.forEach((k, i) => {
      const g = k.get(marker);
      if (g && g.length > 0) typedKnown.push({ copies: prepared.copies(g), dropout: dropout[1 + i]! });
      else untypedKnown.push(dropout[1 + i]!);
    });
    return { first: dropout[0]!, typedKnown, untypedKnown, unknowns: dropout.slice(1 + known) };
  };
  const p = split(c.dropout);
  const d = split(dropoutHd);
  const poi = poiGenotype && poiGenotype.length > 0 ? prepared.copies(poiGenotype) : undefined;
  const hp: MixtureHypothesisAtMarker = {
    contributors: poi ? [{ copies: poi, dropout: p.first }, ...p.typedKnown] : p.typedKnown,
    nonContributors: [],
    unknowns: [...(poi ? [] : [p.first]), ...p.untypedKnown, ...p.unknowns],
  };
  const hd: MixtureHypothesisAtMarker = {
    contributors: d.typedKnown,
    nonContributors: poi && c.personOfInterestTypedUnderHd ? [poi] : [],
    unknowns: [d.first, ...d.untypedKnown, ...d.unknowns],
  };
  return { hp, hd };
}

/**
 * LR = Pr(E | Hp) / Pr(E | Hd) per marker and over the markers (independent), exactly (GENETICS.md "Mixtures";
 * Haned et al. 2012; Gill et al. 2007). A marker where the person of interest is not typed, or without frequencies,
 * is skipped with its reason.
 */
export function mixtureLr(c: MixtureCase): MixtureLrResult {
  checkMixtureCase(c);
  const parameters: MixtureModelParameters = { dropIn: c.dropIn, theta: c.theta };
  const markers: MixtureMarkerResult[] = [];
  const skipped: { marker: string; reason: string }[] = [];
  for (const marker of evidenceMarkers(c.replicates)) {
    const poiGenotype = c.personOfInterest.get(marker);
    if (!c.population.markers.has(marker)) {
      skipped.push({ marker, reason: `no frequencies in ${c.population.name}` });
      continue;
    }
    if (!poiGenotype || poiGenotype.length === 0) {
      skipped.push({ marker, reason: 'the person of interest is not typed here' });
      continue;
    }
    const shown = c.replicates.flatMap((r) => (r.has(marker) ? [r.get(marker)!] : []));
    const typed = [poiGenotype, ...c.knownContributors.flatMap((k) => (k.has(marker) ? [k.get(marker)!] : []))];
    const prepared = prepareMixtureMarker(c.population, marker, shown, typed, c.frequencyRule);
    const { hp, hd } = hypothesesAtMarker(prepared, marker, c, poiGenotype);
    const likelihoodHp = mixtureMarkerLikelihood(prepared, hp, parameters);
    const likelihoodHd = mixtureMarkerLikelihood(prepared, hd, parameters);
    if (likelihoodHd === 0) throw new MixtureError(`At ${marker} the evidence is impossible under Hd (no unknown or drop-in can explain it); check the number of contributors and the drop-in probability.`);
    const seen = new Set(shown.flat());
    const carried = new Set(typed.flat());
    markers.push({
      marker,
      alleles: prepared.alleles,
      frequencies: [...prepared.frequencies],
      replicates: shown.map((r) => [...r]),
      explained: [...seen].filter((a) => carried.has(a)),
      droppedOut: [...carried].filter((a) => !seen.has(a)),
      unexplained: [...seen].filter((a) => !carried.has(a)),
      unknownsHp: hp.unknowns.length,
      unknownsHd: hd.unknowns.length,
      likelihoodHp,
      likelihoodHd,
      lr: likelihoodHp / likelihoodHd,
    });
  }
  const log10Lr = markers.reduce((s, m) => s + Math.log10(m.lr), 0);
  return { markers, skipped, lr: 10 ** log10Lr, log10Lr };
}

export { OTHER_ALLELES };
