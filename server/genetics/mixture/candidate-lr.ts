import type { Genotype, PopulationFrequencies } from '../types';
import { likelihoodWithNonContributor, mixtureMarkerLikelihood, type MixtureModelParameters } from './mixture-likelihood';
import { prepareMixtureMarker, type FrequencyRule } from './mixture-marker';

/** One marker of a mixture search: the evidence there, the known contributors, the parameters fixed for the search. */
export interface MixtureSearchMarker {
  population: PopulationFrequencies;
  marker: string;
  /** The alleles each replicate shows here. */
  replicates: readonly Genotype[];
  /** Known contributors' genotypes here (undefined: not typed here, counted as an unknown). */
  knownContributors: readonly (Genotype | undefined)[];
  /** One drop-out per contributor: candidate (person of interest), known contributors, unknowns. */
  dropout: readonly number[];
  parameters: MixtureModelParameters;
  personOfInterestTypedUnderHd: boolean;
  frequencyRule: FrequencyRule;
}

/**
 * The LR of every candidate genotype at one marker with the parameters fixed (GENETICS.md "How the search reaches
 * memory speed": per marker the LR depends only on the candidate's genotype), each exactly mixtureLr's for that
 * candidate as the person of interest. A candidate allele never seen falls in the merged class, so the table has one
 * entry per class genotype however many alleles the population knows; undefined for a genotype of more than two alleles.
 */
export function mixtureCandidateLr(m: MixtureSearchMarker): (genotype: Genotype) => number | undefined {
  const known = m.knownContributors.filter((g): g is Genotype => g !== undefined && g.length > 0);
  const prepared = prepareMixtureMarker(m.population, m.marker, m.replicates, known, m.frequencyRule, true);
  const [candidateDropout, ...rest] = m.dropout;
  const knownDropouts = rest.slice(0, m.knownContributors.length);
  const typedKnown = m.knownContributors.flatMap((g, i) => (g && g.length > 0 ? [{ copies: prepared.copies(g), dropout: knownDropouts[i]! }] : []));
  const untypedKnown = m.knownContributors.flatMap((g, i) => (g && g.length > 0 ? [] : [knownDropouts[i]!]));
  const unknowns = [...untypedKnown, ...rest.slice(m.knownContributors.length)];
  const hdDependsOnCandidate = m.personOfInterestTypedUnderHd && m.parameters.theta > 0;
  const hdHypothesis = { contributors: typedKnown, nonContributors: [], unknowns: [candidateDropout!, ...unknowns] };
  // Under θ the candidate's alleles enter Hd's sampling counts only: the unknowns are enumerated once for all candidates.
  const hdOf = hdDependsOnCandidate ? likelihoodWithNonContributor(prepared, hdHypothesis, m.parameters) : null;
  const hdWithout = hdOf ? 0 : mixtureMarkerLikelihood(prepared, hdHypothesis, m.parameters);
  const table = new Map<string, number>();
  // With normalized frequencies an allele the table lacks changes every frequency: such a candidate gets its own classes.
  const listed = m.population.markers.get(m.marker)?.frequencies;
  const ownClasses = (g: Genotype) => m.frequencyRule.normalize && g.some((a) => prepared.classOf(a) === prepared.alleles.length - 1 && !listed?.has(a));
  return (genotype) => {
    if (genotype.length < 1 || genotype.length > 2) return undefined;
    if (ownClasses(genotype)) return exactFor(m, genotype);
    const classes = genotype.map((a) => prepared.classOf(a)).sort((x, y) => x - y);
    const key = classes.length === 1 ? `${classes[0]}` : `${classes[0]}:${classes[1]}`;
    let lr = table.get(key);
    if (lr === undefined) {
      const copies = prepared.copies(genotype);
      const hp = mixtureMarkerLikelihood(prepared, { contributors: [{ copies, dropout: candidateDropout! }, ...typedKnown], nonContributors: [], unknowns }, m.parameters);
      const hd = hdOf ? hdOf(copies) : hdWithout;
      lr = hd > 0 ? hp / hd : 0;
      table.set(key, lr);
    }
    return lr;
  };
}

/** One candidate's LR at the marker computed on its own (its alleles prepared with the evidence's). */
function exactFor(m: MixtureSearchMarker, genotype: Genotype): number {
  const known = m.knownContributors.filter((g): g is Genotype => g !== undefined && g.length > 0);
  const prepared = prepareMixtureMarker(m.population, m.marker, m.replicates, [genotype, ...known], m.frequencyRule, true);
  const [candidateDropout, ...rest] = m.dropout;
  const knownDropouts = rest.slice(0, m.knownContributors.length);
  const typedKnown = m.knownContributors.flatMap((g, i) => (g && g.length > 0 ? [{ copies: prepared.copies(g), dropout: knownDropouts[i]! }] : []));
  const unknowns = [...m.knownContributors.flatMap((g, i) => (g && g.length > 0 ? [] : [knownDropouts[i]!])), ...rest.slice(m.knownContributors.length)];
  const copies = prepared.copies(genotype);
  const hp = mixtureMarkerLikelihood(prepared, { contributors: [{ copies, dropout: candidateDropout! }, ...typedKnown], nonContributors: [], unknowns }, m.parameters);
  const hd = mixtureMarkerLikelihood(prepared, { contributors: typedKnown, nonContributors: m.personOfInterestTypedUnderHd ? [copies] : [], unknowns: [candidateDropout!, ...unknowns] }, m.parameters);
  return hd > 0 ? hp / hd : 0;
}
