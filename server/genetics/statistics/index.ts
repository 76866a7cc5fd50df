// The engine's statistics (GENETICS.md "Population statistics" to "Y-STR haplotype statistics", and "Expected chance hits").
export { alignProfiles, type AlignedMarker, type AlignedProfiles, type SkipReason, type SkippedMarker } from './aligned-markers';
export { alleleFrequency, frequencyLookup, type FrequencyOf } from './allele-frequency';
export { hardyWeinbergAlleles, hardyWeinbergGenotypes, lrDistribution, OTHER_ALLELE, poissonBinomialAtMost, unrelatedGenotypeAtoms, type LrAtom, type LrDistributionOptions, type MarkerLr, type UnrelatedGenotypeOptions, type WeightedGenotype } from './chance-hits';
export { distributionOnGrid, type DistributionGrid, type LrDistribution, type LrTail } from './distribution-grid';
export { combineIndices, type CombinedIndex, type LocusIndex } from './combined-index';
export { isExclusionHit, parentChildExclusion, yLineageExclusion, type ExclusionDecision, type ExclusionResult, type ExclusionThreshold, type MarkerDecision } from './exclusion';
export { duoExclusionPower, trioExclusionPower } from './exclusion-power';
export { clopperPearsonUpper, countHaplotype, haplotypeFrequency, type HaplotypeCount, type HaplotypeEntry, type HaplotypeFrequency, type HaplotypeFrequencyOptions } from './haplotype-frequency';
export { identityLikelihoodRatio, matchProbability } from './identity';
export { betaQuantile, logGamma, regularizedIncompleteBeta } from './incomplete-beta';
export { kinshipLikelihoodRatio, kinshipLocusLikelihoodRatio, kinshipX1, kinshipX2, RELATIONSHIP_KAPPA, type Kappa, type Relationship } from './kinship';
export { duoLocusIndex, duoPaternityIndex, mutationIndex, trioLocusIndex, trioPaternityIndex, type ParentageIndex, type ParentageOptions } from './parentage';
