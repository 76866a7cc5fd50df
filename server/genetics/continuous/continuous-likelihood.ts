import { ContinuousModelError, type ContinuousEvidence, type ContinuousHypothesis, type GammaParameters } from './continuous-types';
import { prepareEvidenceMarker, type EvidenceMarker } from './evidence-marker';
import { genotypeList, prepareHypothesisMarker, type HypothesisMarker } from './hypothesis-marker';
import { compiledLogLikelihood, compileMarker, type CompiledMarker } from './compiled-marker';
import { LikelihoodScratch, markerLogLikelihood } from './marker-likelihood';
import { nestedLogLikelihood, nestMarker, type NestedMarker } from './nested-marker';

/** Most joint genotypes of the unknowns summed at one marker: beyond it an exact sum takes minutes (4 unknowns over 9 alleles is 4.1 million). */
export const MAX_JOINT_GENOTYPES = 5_000_000;

/** The evidence prepared once: the markers weighed and those skipped with the reason. */
export interface PreparedEvidence {
  markers: EvidenceMarker[];
  skipped: { marker: string; reason: string }[];
}

/** Prepares every marker of the evidence (in the order the replicates first name them); a marker without frequencies is skipped, said why. */
export function prepareEvidence(evidence: ContinuousEvidence): PreparedEvidence {
  const names = [...new Set(evidence.replicates.flatMap((r) => [...r.keys()]))];
  const markers: EvidenceMarker[] = [];
  const skipped: { marker: string; reason: string }[] = [];
  for (const marker of names) {
    if (!evidence.population.markers.has(marker)) skipped.push({ marker, reason: 'No allele frequencies for this marker in the population.' });
    else markers.push(prepareEvidenceMarker(evidence, marker));
  }
  if (markers.length === 0) throw new ContinuousModelError('No marker of the evidence has allele frequencies in the population.');
  return { markers, skipped };
}

/** One hypothesis over the prepared markers, ready to be evaluated at any parameters. */
export interface HypothesisModel {
  contributors: number;
  evidence: PreparedEvidence;
  markers: HypothesisMarker[];
  /** Joint genotypes of the unknowns summed per marker. */
  jointGenotypes: number[];
  /** Per marker its compilation for repeated evaluation (a fit), or null where too large to keep (walked each time). */
  compiled: (CompiledMarker | null)[];
  /** Per marker not compiled its layout for the nested-loop sum, or null (walked each time). */
  nested: (NestedMarker | null)[];
}

/** Names of the hypothesis's persons in messages. */
export interface HypothesisRoles {
  contributor: (k: number) => string;
  nonContributor: (i: number) => string;
}

/** Prepares a hypothesis; refuses a model whose exact sum is beyond MAX_JOINT_GENOTYPES at some marker. */
export function prepareHypothesis(evidence: PreparedEvidence, hypothesis: ContinuousHypothesis, roles: HypothesisRoles): HypothesisModel {
  const markers = evidence.markers.map((m) => prepareHypothesisMarker(hypothesis, m, roles));
  const jointGenotypes = markers.map((h, i) => {
    const unknowns = h.genotypes.filter((g) => g < 0).length;
    const joint = genotypeList(evidence.markers[i]!.alleleCount).length ** unknowns;
    if (joint > MAX_JOINT_GENOTYPES) throw new ContinuousModelError(`${evidence.markers[i]!.marker}: ${unknowns} unknowns over ${evidence.markers[i]!.alleleCount} alleles make ${joint} joint genotypes, more than the ${MAX_JOINT_GENOTYPES} an exact sum takes; use fewer contributors or condition on known ones.`);
    return joint;
  });
  const compiled = markers.map((h, i) => compileMarker(evidence.markers[i]!, h));
  const nested = markers.map((h, i) => (compiled[i] ? null : nestMarker(evidence.markers[i]!, h)));
  return { contributors: hypothesis.contributors.length, evidence, markers, jointGenotypes, compiled, nested };
}

/** The log-likelihood per marker and in total (natural logarithms). */
export interface LogLikelihood {
  perMarker: number[];
  total: number;
}

/** The hypothesis's log-likelihood at `parameters`: the markers' sum (markers independent; GENETICS.md "Continuous model"). */
export function logLikelihood(model: HypothesisModel, parameters: GammaParameters, scratch = new LikelihoodScratch()): LogLikelihood {
  const perMarker = model.evidence.markers.map((m, i) => {
    const compiled = model.compiled[i];
    if (compiled) return compiledLogLikelihood(compiled, parameters);
    const nested = model.nested[i];
    return nested ? nestedLogLikelihood(nested, parameters) : markerLogLikelihood(m, model.markers[i]!, parameters, scratch);
  });
  return { perMarker, total: perMarker.reduce((s, l) => s + l, 0) };
}
