import { z } from 'zod';
import { Id } from './common';
import { Bracket } from './hit-figures';

/** Candidates a familial search lists by default, and at most (ARCHITECTURE.md "Search policy": a ranked candidate list). */
export const FAMILIAL_DEFAULT_LIMIT = 50;
export const FAMILIAL_MAX_LIMIT = 500;
/** Candidates one promotion may name. */
export const FAMILIAL_MAX_PROMOTE = 100;

const populationIds = z.array(Id).min(1, 'Choose at least one population').max(10, 'At most 10 populations at once');

/** What a familial search sends for one approved profile: the on-request rule, the populations (absent: the rule's, else the organization's non-synthetic ones) and how many candidates to list. */
export const FamilialSearchBody = z.object({
  searchRuleId: Id,
  populationIds: populationIds.optional(),
  limit: z.number().int('A whole number').min(1, 'At least 1').max(FAMILIAL_MAX_LIMIT, `At most ${FAMILIAL_MAX_LIMIT}`).default(FAMILIAL_DEFAULT_LIMIT),
});
export type FamilialSearchBody = z.input<typeof FamilialSearchBody>;

/** A population a familial search computed with; a synthetic one (demo data) is allowed on request and labelled. */
export const FamilialPopulation = z
  .object({
    id: Id,
    name: z.string(),
    synthetic: z.boolean(),
    /** Why the search did not weigh with it (it holds none of the profile's markers); absent or null: it did. */
    notEvaluated: z.string().nullish(),
  })
  .meta({ id: 'FamilialPopulation' });
export type FamilialPopulation = z.infer<typeof FamilialPopulation>;

/** One population's figures for a candidate (GENETICS.md "Expected chance hits"). */
export const FamilialCandidatePopulation = z
  .object({
    populationId: Id,
    combinedIndex: z.number(),
    log10: z.number(),
    markerCount: z.number().int(),
    /** Spec 4 "Hit probability display". */
    probability: z.string(),
    /** P(an unrelated profile scores at least this LR), the upper end of its bracket. */
    pValue: z.number().nullable(),
    pValueBracket: Bracket.nullable(),
    /** Searched profiles × pValue: how many unrelated profiles are expected to score at least this — by chance alone, at this rank. */
    expectedChanceCandidates: z.number().nullable(),
  })
  .meta({ id: 'FamilialCandidatePopulation' });
export type FamilialCandidatePopulation = z.infer<typeof FamilialCandidatePopulation>;

/** One ranked candidate: the profile, its case, every population's figures and the smallest LR it is ranked by. */
export const FamilialCandidate = z
  .object({
    rank: z.number().int(),
    profileId: Id,
    sampleName: z.string(),
    caseId: Id,
    caseNumber: z.string(),
    sampleType: z.string(),
    populations: z.array(FamilialCandidatePopulation),
    smallestCombinedIndex: z.number(),
    /** The population giving the smallest LR (what a promoted hit reports). */
    reportedPopulationId: Id,
    /** A hit already names the two profiles (this analysis, or an identity hit that supersedes it): promoting adds nothing. */
    alreadyHit: z.boolean(),
  })
  .meta({ id: 'FamilialCandidate' });
export type FamilialCandidate = z.infer<typeof FamilialCandidate>;

/** The ranked candidate list of a familial search. */
export const FamilialSearchAnswer = z
  .object({
    rule: z.object({ id: Id, name: z.string() }),
    analysis: z.object({ id: Id, name: z.string() }),
    populations: z.array(FamilialPopulation),
    /** Profiles the rule compared the query with (N): the organization's approved profiles of the searched sample types. */
    searchedProfiles: z.number().int(),
    limit: z.number().int(),
    candidates: z.array(FamilialCandidate),
  })
  .meta({ id: 'FamilialSearchAnswer' });
export type FamilialSearchAnswer = z.infer<typeof FamilialSearchAnswer>;

/** What a promotion sends: the search's rule and populations and the candidates chosen; the server computes their figures again. */
export const FamilialPromoteBody = z.object({
  searchRuleId: Id,
  populationIds: populationIds.optional(),
  candidateIds: z.array(Id).min(1, 'Choose at least one candidate').max(FAMILIAL_MAX_PROMOTE, `At most ${FAMILIAL_MAX_PROMOTE} candidates at once`),
});
export type FamilialPromoteBody = z.infer<typeof FamilialPromoteBody>;

/** A pending hit a promotion created. */
export const FamilialPromotedHit = z
  .object({
    id: Id,
    candidateId: Id,
    sampleName: z.string(),
    caseNumber: z.string(),
    combinedIndex: z.number().nullable(),
    probability: z.string(),
    populationId: Id.nullable(),
  })
  .meta({ id: 'FamilialPromotedHit' });
export type FamilialPromotedHit = z.infer<typeof FamilialPromotedHit>;

/** A chosen candidate that did not become a hit, and why. */
export const FamilialSkippedCandidate = z
  .object({ candidateId: Id, sampleName: z.string().nullable(), reason: z.string() })
  .meta({ id: 'FamilialSkippedCandidate' });
export type FamilialSkippedCandidate = z.infer<typeof FamilialSkippedCandidate>;

export const FamilialPromoteAnswer = z.object({ hits: z.array(FamilialPromotedHit), skipped: z.array(FamilialSkippedCandidate) }).meta({ id: 'FamilialPromoteAnswer' });
export type FamilialPromoteAnswer = z.infer<typeof FamilialPromoteAnswer>;

/** An on-request rule the profile may be searched with, and the populations it computes with unless others are chosen. */
export const FamilialRuleOption = z
  .object({
    id: Id,
    name: z.string(),
    analysisId: Id,
    analysisName: z.string(),
    searchedSampleTypes: z.array(z.string()),
    defaultPopulationIds: z.array(Id),
  })
  .meta({ id: 'FamilialRuleOption' });
export type FamilialRuleOption = z.infer<typeof FamilialRuleOption>;

/** What the familial search form offers for one profile: the rules that search with its sample type, the organization's populations of its kind. */
export const FamilialSearchOptions = z
  .object({ rules: z.array(FamilialRuleOption), populations: z.array(FamilialPopulation) })
  .meta({ id: 'FamilialSearchOptions' });
export type FamilialSearchOptions = z.infer<typeof FamilialSearchOptions>;
