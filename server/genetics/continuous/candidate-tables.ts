import { prepareEvidence, prepareHypothesis, type HypothesisModel, type PreparedEvidence } from './continuous-likelihood';
import { ContinuousModelError, type ContinuousEvidence, type GammaParameters, type TypedPerson } from './continuous-types';
import { genotypeList, prepareHypothesisMarker, type HypothesisMarker } from './hypothesis-marker';
import { LikelihoodScratch, markerLogLikelihood } from './marker-likelihood';

/** A stain searched against a database with the continuous model: the evidence, the contributor count and who is conditioned on. */
export interface ContributorSearchCase {
  evidence: ContinuousEvidence;
  /** Contributors under both hypotheses (Hd: the known contributors and unknowns). */
  contributors: number;
  knownContributors: readonly TypedPerson[];
  knownNonContributors: readonly TypedPerson[];
  /** Whether the candidate's alleles enter θ's counts under Hd, as the calculator's person of interest does. */
  personOfInterestTypedUnderHd: boolean;
}

/**
 * A marker's candidate LR as a function of the candidate's alleles there; undefined: not compared (untyped there). It
 * depends on each allele's class only (its place in the evidence, or Q; −1: LR 0), which `classes` gives for a search
 * to read each class pair's LR once.
 */
export type CandidateLr = ((alleles: readonly string[]) => number | undefined) & {
  classes: { count: number; classOf(allele: string): number; lrOf(x: number, y: number): number };
};

const unknownLabel = (k: number) => `Unknown ${k + 1}`;

/** The unknowns Hd holds: every contributor but the known ones. */
export function hdUnknowns(c: ContributorSearchCase): number {
  const unknowns = c.contributors - c.knownContributors.length;
  if (unknowns < 1) throw new ContinuousModelError(`Hp holds the candidate and ${c.knownContributors.length} known contributor(s): the number of contributors must be at least ${c.knownContributors.length + 1}.`);
  return unknowns;
}

/** Hd of a database search (the known contributors and unknowns; the candidate absent, it is fitted without one). */
export function searchHdModel(c: ContributorSearchCase, evidence: PreparedEvidence = prepareEvidence(c.evidence)): HypothesisModel {
  const known = c.knownContributors.length;
  return prepareHypothesis(
    evidence,
    { contributors: [...c.knownContributors, ...new Array<null>(hdUnknowns(c)).fill(null)], nonContributors: c.knownNonContributors },
    { contributor: (k) => (k < known ? `Known contributor ${k + 1}` : unknownLabel(k - known)), nonContributor: (i) => `Known non-contributor ${i + 1}` },
  );
}

/**
 * Hp's parameters when the candidate takes the place of Hd's unknown `position` (GENETICS.md "Continuous model":
 * database search): Hp's order is candidate, known contributors, the other unknowns; μ, σ, β, ξ unchanged.
 */
export function hpParametersAt(hd: GammaParameters, knownContributors: number, position: number): GammaParameters {
  const unknowns = hd.mx.slice(knownContributors);
  return { ...hd, mx: [unknowns[position]!, ...hd.mx.slice(0, knownContributors), ...unknowns.filter((_, i) => i !== position)] };
}

/** A genotype's index in genotypeList order (a ≤ b), as hypothesis-marker.ts numbers a typed person's. */
const genotypeIndex = (a: number, b: number, n: number) => a * n - (a * (a - 1)) / 2 + (b - a);

/** The hypothesis marker with a typed person's genotype (a, b) added: as a contributor at `contributor`, else as a typed non-contributor. */
function withCandidate(base: HypothesisMarker, a: number, b: number, n: number, contributor: number | null): HypothesisMarker {
  const typedCounts = Float64Array.from(base.typedCounts);
  typedCounts[a]! += 1;
  typedCounts[b]! += 1;
  const genotypes = Int32Array.from(base.genotypes);
  if (contributor !== null) genotypes[contributor] = genotypeIndex(a, b, n);
  return { genotypes, typedCounts, typedTotal: base.typedTotal + 2 };
}

/**
 * Per marker of the evidence, the candidate's LR at fixed parameters as a function of its genotype there (GENETICS.md
 * "Continuous model": database search; ProbRank, DBLR): Hd's likelihood at `hd`; Hp's with the candidate in the place of
 * Hd's unknown `position` at hpParametersAt(hd, …, position). Each value is the ratio of the same exact marker sums the
 * continuous LR takes (continuousLr at those fixed parameters, per marker), so over a candidate's typed markers the
 * product is its LR. An allele the frequencies leave no room for (no Q) gives LR 0.
 */
export function candidateTables(c: ContributorSearchCase, hd: GammaParameters, position: number, evidence: PreparedEvidence = prepareEvidence(c.evidence)): Map<string, CandidateLr> {
  const known = c.knownContributors.length;
  const unknowns = hdUnknowns(c);
  if (position < 0 || position >= unknowns) throw new ContinuousModelError(`The candidate takes the place of one of Hd's ${unknowns} unknowns, not of unknown ${position + 1}.`);
  const hp = hpParametersAt(hd, known, position);
  const roles = { contributor: (k: number) => (k === 0 ? 'Candidate' : k <= known ? `Known contributor ${k}` : unknownLabel(k - known - 1)), nonContributor: (i: number) => `Known non-contributor ${i + 1}` };
  const hdRoles = { contributor: (k: number) => (k < known ? `Known contributor ${k + 1}` : unknownLabel(k - known)), nonContributor: roles.nonContributor };
  const scratch = new LikelihoodScratch();
  const tables = new Map<string, CandidateLr>();
  for (const marker of evidence.markers) {
    const n = marker.alleleCount;
    // The candidate's place is an unknown until its genotype is set (withCandidate).
    const hpBase = prepareHypothesisMarker({ contributors: [null, ...c.knownContributors, ...new Array<null>(unknowns - 1).fill(null)], nonContributors: c.knownNonContributors }, marker, roles);
    const hdBase = prepareHypothesisMarker({ contributors: [...c.knownContributors, ...new Array<null>(unknowns).fill(null)], nonContributors: c.knownNonContributors }, marker, hdRoles);
    // θ counts the candidate under Hd only when it is typed there and θ > 0: otherwise Hd's sum is the same for every genotype.
    const hdPerGenotype = c.personOfInterestTypedUnderHd && marker.theta > 0;
    const hdConstant = hdPerGenotype ? 0 : markerLogLikelihood(marker, hdBase, hd, scratch);
    const logLr = new Float64Array(n * n);
    for (const [a, b] of genotypeList(n)) {
      const lHp = markerLogLikelihood(marker, withCandidate(hpBase, a, b, n, 0), hp, scratch);
      const lHd = hdPerGenotype ? markerLogLikelihood(marker, withCandidate(hdBase, a, b, n, null), hd, scratch) : hdConstant;
      logLr[a * n + b] = lHp - lHd;
    }
    // A search asks for every genotype of the index's dictionary, most of them the same few cells (alleles the
    // evidence lacks are Q): each allele's position found once, each cell's LR computed once.
    const positions = new Map<string, number>();
    marker.positions.forEach((allele, i) => positions.has(allele) || positions.set(allele, i));
    const indexOf = (allele: string) => {
      const i = positions.get(allele) ?? -1;
      if (i >= 0 && i < marker.seenCount) return i;
      return marker.hasQ ? n - 1 : -1;
    };
    const lr = new Float64Array(n * n).fill(NaN);
    const lrOf = (x: number, y: number) => {
      const cell = x * n + y;
      if (Number.isNaN(lr[cell])) lr[cell] = Math.exp(logLr[cell]!);
      return lr[cell]!;
    };
    const byAlleles = (alleles: readonly string[]) => {
      if (alleles.length === 0 || alleles.length > 2) return undefined;
      const x = indexOf(alleles[0]!);
      const y = indexOf(alleles[1] ?? alleles[0]!);
      if (x < 0 || y < 0) return 0;
      return lrOf(Math.min(x, y), Math.max(x, y));
    };
    tables.set(marker.marker, Object.assign(byAlleles, { classes: { count: n, classOf: indexOf, lrOf } }));
  }
  return tables;
}
