import type { HitFigures } from './schemas/hit-figures';

/**
 * What a hit reports beside its probability (GENETICS.md "Expected chance hits") and whether each
 * figure comes from the synthetic population, the same for HitView and the hit PDF: the p-value is the
 * reported population's; the expected chance hits are a stringency rule's own (the largest chance over
 * every population) or the reported population's. Hits recorded before search rules know only `synthetic`.
 */
export function reportedChance(hit: { figures: HitFigures | null; synthetic: boolean }) {
  const reported = hit.figures?.populations.find((p) => p.reported);
  const stringency = hit.figures?.stringency ?? null;
  const populationSynthetic = reported?.synthetic ?? hit.synthetic;
  return {
    populationSynthetic,
    /** N of "in N profiles, …": null when the hit does not know it. */
    searchedProfiles: stringency?.searchedProfiles ?? reported?.chance?.searchedProfiles ?? null,
    chanceSynthetic: stringency ? hit.figures!.populations.some((p) => p.synthetic) : populationSynthetic,
  };
}
