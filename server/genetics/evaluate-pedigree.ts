import type { MarkerEvaluation } from './evaluate-analysis';
import { markersOf, unusable } from './evaluate-analysis';
import { describeMutationModel, MutationModelError, PedigreeError, pedigreeLr, type MutationModels, type PedigreeHypotheses } from './pedigree';
import type { EngineProfile, Genotype, PopulationFrequencies } from './types';

/** A pedigree run over one population: per marker the LR and its likelihoods, and the product over the evaluated ones. */
export interface PedigreeEvaluation {
  markers: MarkerEvaluation[];
  /** Π of the evaluated markers' LRs (summed in log10); null when none was evaluated; 0 when a marker excludes. */
  combinedIndex: number | null;
  log10: number | null;
  /** Markers consistent with H1 only through a mutation, and markers H1 cannot explain even so (LR 0). */
  markersNeedingMutation: string[];
  excludedMarkers: string[];
}

const NO_MUTATION: MutationModels = { female: { model: 'trivial' }, male: { model: 'trivial' } };

/** The models of one marker: its own where the setting names it, else the setting's; none without a setting (GENETICS.md "Mutation models"). */
export const modelsFor =
  (mutation: { female: MutationModels['female']; male: MutationModels['male']; markers: readonly ({ marker: string } & MutationModels)[] } | null) =>
  (marker: string): MutationModels =>
    mutation ? (mutation.markers.find((m) => m.marker === marker) ?? mutation) : NO_MUTATION;

/** The models' text as a report prints it. */
export const describeSexModels = (models: MutationModels) => `female: ${describeMutationModel(models.female)}; male: ${describeMutationModel(models.male)}`;

/**
 * A pedigree analysis over one population (GENETICS.md "Pedigrees", Egeland, Kling & Mostad 2016): the roles'
 * profiles placed as the typed persons of H1 and H2; per marker the exact likelihoods with the marker's mutation
 * models and the LR. A marker is evaluated when the tested person and at least one other role are typed there
 * with at most two comparable alleles and the population has frequencies for it; a role untyped at a marker is
 * an untyped person there. LR = Π over unlinked markers.
 */
export function evaluatePedigree(
  hypotheses: PedigreeHypotheses,
  roles: readonly string[],
  profiles: readonly EngineProfile[],
  population: PopulationFrequencies,
  modelsOf: (marker: string) => MutationModels,
  markerOrder: readonly string[],
): PedigreeEvaluation {
  const markersNeedingMutation: string[] = [];
  const excludedMarkers: string[] = [];
  const others = roles.filter((r) => r !== hypotheses.target);
  const markers = markersOf(profiles, markerOrder).map((marker): MarkerEvaluation => {
    const genotypes = profiles.map((p) => p.get(marker) ?? null);
    const base = { marker, genotypes, pattern: null, expression: null, value: null, isExclusion: null };
    const typed = new Map<string, Genotype>();
    for (const [i, g] of genotypes.entries()) {
      if (g === null || g.length === 0) continue;
      const why = unusable(g, 'Autosomal');
      if (why) return { ...base, notEvaluated: `${roles[i]}: ${why}` };
      typed.set(roles[i]!, g);
    }
    if (!typed.has(hypotheses.target)) return { ...base, notEvaluated: `not typed in ${hypotheses.target}` };
    if (typed.size === 1) return { ...base, notEvaluated: `not typed in ${others.join(' or ')}` };
    if (!population.markers.get(marker)?.frequencies.size) return { ...base, notEvaluated: `no allele frequencies for ${marker} in ${population.name}` };
    const models = modelsOf(marker);
    try {
      const [m] = pedigreeLr(hypotheses.h1, hypotheses.h2, new Map([[marker, typed]]), population, models).markers;
      if (m!.verdict === 'needs a mutation') markersNeedingMutation.push(marker);
      if (m!.verdict === 'excluded') excludedMarkers.push(marker);
      const pedigree = { alleles: m!.alleles, frequencies: m!.frequencies, mutation: describeSexModels(models), likelihoodH1: m!.likelihoodH1, likelihoodH2: m!.likelihoodH2, verdict: m!.verdict };
      return { ...base, value: m!.lr, notEvaluated: null, pedigree };
    } catch (error) {
      if (error instanceof PedigreeError || error instanceof MutationModelError) return { ...base, notEvaluated: error.message };
      throw error;
    }
  });
  const values = markers.filter((m) => m.value !== null).map((m) => m.value!);
  if (values.length === 0) return { markers, combinedIndex: null, log10: null, markersNeedingMutation, excludedMarkers };
  if (values.some((v) => v === 0)) return { markers, combinedIndex: 0, log10: -Infinity, markersNeedingMutation, excludedMarkers };
  const log10 = values.reduce((s, v) => s + Math.log10(v), 0);
  return { markers, combinedIndex: 10 ** log10, log10, markersNeedingMutation, excludedMarkers };
}
