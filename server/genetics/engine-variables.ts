/**
 * Names a formula may use that the engine supplies per marker rather than the analysis's constants:
 * `A`, the marker's power of exclusion in the chosen population (AABB: an excluded locus counts μ/A).
 */
export const ENGINE_VARIABLES: Readonly<Record<string, string>> = {
  A: 'the exclusion power of the marker in the population',
};
