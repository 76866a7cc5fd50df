import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { formatHitProbability } from '../../../core/probability-display';
import { can } from '../../../core/permissions';
import { AnalysisResult, AnalyzeBody, CONTINUOUS_MIXTURE, type MarkerResult, type PopulationResult } from '../../../core/schemas/analyses';
import type { Clock } from '../../clock';
import { ErrorBody, Id } from '../../../core/schemas/common';
import type { Db } from '../../db/database';
import { analysisConstants, analysisFormulae } from '../../db/schema';
import { evaluateComputational, evaluateExclusion, MAX_INCONSISTENCIES, type EngineAnalysis, type MarkerEvaluation } from '../../genetics/evaluate-analysis';
import { describeSexModels, evaluatePedigree, modelsFor } from '../../genetics/evaluate-pedigree';
import { analysisHypotheses, PedigreeError, type PedigreeHypotheses } from '../../genetics/pedigree';
import { MixtureError } from '../../genetics/mixture/mixture-lr';
import { weighMixture, type MixtureProfiles, type WeighOptions } from '../../genetics/mixture/weigh-mixture';
import type { MixtureLrResult, MixtureSetting } from '../../../core/schemas/mixtures';
import type { MutationSetting } from '../../../core/schemas/pedigrees';
import type { PopulationRow } from '../../matching/engine-population';
import { countHaplotype, haplotypeFrequency } from '../../genetics/statistics';
import type { EngineProfile } from '../../genetics/types';
import type { AuthenticatedUser } from '../../identity/load-principal';
import type { RouteDeps } from '../route-deps';
import { BadRequest, Forbidden } from '../errors';
import { loadEnginePopulation } from '../../matching/engine-population';
import { findVisiblePopulation } from '../populations/visibility';
import { readMarkerValues } from '../profiles/marker-values';
import { findVisibleProfile } from '../profiles/profile-query';
import { findAnalysis, missingPatterns, type AnalysisRow } from './analysis-view';
import { describeFormula } from './formula-checks';

const toMarkerResult = (m: MarkerEvaluation, constants: Readonly<Record<string, number>>): MarkerResult => ({
  marker: m.marker,
  genotypes: m.genotypes.map((g) => (g ? [...g] : null)),
  pattern: m.pattern,
  expression: m.expression,
  latex: describeFormula(m.expression, constants).latex,
  value: m.value,
  // A marker value of 0 (an exclusion at that marker) has no logarithm; JSON has no -Infinity.
  log10: m.value === null || m.value <= 0 ? null : Math.log10(m.value),
  isExclusion: m.isExclusion,
  notEvaluated: m.notEvaluated,
  pedigree: m.pedigree ?? null,
});

/** The run's pedigree, when the analysis weighs one: a Pedigree analysis always, a pairwise/trio one with a mutation model. */
function pedigreeRun(row: AnalysisRow, body: AnalyzeBody): { hypotheses: PedigreeHypotheses; mutation: MutationSetting | null } | null {
  const mutation = body.mutation === undefined ? (row.mutation ?? null) : body.mutation;
  if (body.mutation && !row.pedigree) throw new BadRequest(`Analysis ${row.name} has no pedigree; a mutation model needs one (the administrator draws it on the analysis).`);
  if (row.kind !== 'Pedigree' && !(row.pedigree && mutation)) return null;
  if (!row.pedigree) throw new BadRequest(`Analysis ${row.name} has no pedigree drawn yet.`);
  try {
    return { hypotheses: analysisHypotheses(row.pedigree, row.roles), mutation };
  } catch (error) {
    if (error instanceof PedigreeError) throw new BadRequest(`Analysis ${row.name}: ${error.message}`);
    throw error;
  }
}

type LoadedPopulation = Awaited<ReturnType<typeof loadEnginePopulation>>;

/** A pedigree run over one population (GENETICS.md "Pedigrees"): per marker the LR of H1 to H2 with its likelihoods. */
function pedigreePopulationResult(
  run: NonNullable<ReturnType<typeof pedigreeRun>>,
  row: AnalysisRow,
  population: PopulationRow,
  loaded: LoadedPopulation,
  profiles: readonly EngineProfile[],
  order: readonly string[],
): PopulationResult {
  const result = evaluatePedigree(run.hypotheses, row.roles, profiles, loaded.frequencies, modelsFor(run.mutation), order);
  return {
    populationId: population.id,
    populationName: population.name,
    populationSource: population.source,
    synthetic: population.synthetic,
    markers: result.markers.map((m) => toMarkerResult(m, {})),
    combinedIndex: result.combinedIndex,
    log10: result.log10 === null || result.log10 === -Infinity ? null : result.log10,
    probability: result.combinedIndex === null ? 'not evaluated' : formatHitProbability({ combinedIndex: result.combinedIndex, nonExclusionMarkerCount: 0, markerCount: 0, excluded: result.combinedIndex === 0 }),
    haplotypeCount: null,
    conclusion: null,
    markersNeedingMutation: result.markersNeedingMutation,
    excludedMarkers: result.excludedMarkers,
  };
}

/** The roles' profiles, each one the user may read and of the analysis's kind. */
async function loadProfiles(db: Db, user: AuthenticatedUser, analysis: AnalysisRow, ids: readonly string[]) {
  if (ids.length !== analysis.roles.length) throw new BadRequest(`Choose a profile for each role: ${analysis.roles.join(', ')}`);
  return Promise.all(
    ids.map(async (id, i) => {
      const { profile, caseNumber } = await findVisibleProfile(db, user, id);
      if (profile.kind !== analysis.profileKind) {
        throw new BadRequest(`${analysis.roles[i]}: profile ${profile.profileId} is ${profile.kind === 'YStr' ? 'a Y-STR' : 'an autosomal'} profile; this analysis compares ${analysis.profileKind === 'YStr' ? 'Y-STR' : 'autosomal'} profiles`);
      }
      const values = await readMarkerValues(db, profile.id);
      const engine: EngineProfile = new Map(values.map((v) => [v.marker, v.alleles]));
      return { row: profile, caseNumber, engine, order: values.map((v) => v.marker) };
    }),
  );
}

/**
 * A Y-STR haplotype frequency (SWGDAM 2014): when every compared marker matches, count the haplotype
 * among the population's N and use the upper 95% Clopper–Pearson bound (θ-corrected); LR = 1/frequency.
 */
function haplotypeResult(markers: MarkerEvaluation[], query: EngineProfile, table: Parameters<typeof countHaplotype>[1], theta: number) {
  const compared = markers.filter((m) => m.value !== null);
  if (compared.length === 0) return { combinedIndex: null, log10: null, haplotypeCount: null };
  if (compared.some((m) => m.value === 0)) return { combinedIndex: 0, log10: -Infinity, haplotypeCount: null };
  const counted = countHaplotype(new Map(compared.map((m) => [m.marker, query.get(m.marker)!])), table);
  if (counted.total === 0) return { combinedIndex: null, log10: null, haplotypeCount: null };
  const f = haplotypeFrequency(counted, { theta });
  return { combinedIndex: f.likelihoodRatio, log10: Math.log10(f.likelihoodRatio), haplotypeCount: { matches: f.matches, total: f.total, upperBound: f.upperBound, frequency: f.frequency } };
}

/** A mixture run's further profiles: replicates of the evidence and known contributors, each one the user may read and autosomal. */
async function loadMixtureProfiles(db: Db, user: AuthenticatedUser, ids: readonly string[], role: (i: number) => string) {
  return Promise.all(
    ids.map(async (id, i) => {
      const { profile, caseNumber } = await findVisibleProfile(db, user, id);
      if (profile.kind !== 'Autosomal') throw new BadRequest(`${role(i)}: profile ${profile.profileId} is a Y-STR profile; a mixture analysis weighs autosomal profiles`);
      const values = await readMarkerValues(db, profile.id);
      return { row: profile, caseNumber, engine: new Map(values.map((v) => [v.marker, v.alleles])) as EngineProfile, role: role(i) };
    }),
  );
}

/**
 * A mixture run over one population (GENETICS.md "Mixtures"): the hypotheses, every parameter, the drop-out
 * estimates asked for or used, and per marker Pr(E|Hp), Pr(E|Hd) and the LR; markers not weighed say why.
 */
function mixturePopulationResult(setting: MixtureSetting, profiles: MixtureProfiles, population: PopulationRow, loaded: LoadedPopulation, options: WeighOptions): PopulationResult {
  let result: MixtureLrResult;
  try {
    result = weighMixture(setting, profiles, loaded.frequencies, population.id, options);
  } catch (error) {
    if (error instanceof MixtureError) throw new BadRequest(`${population.name}: ${error.message}`);
    throw error;
  }
  const weighed: MarkerResult[] = result.markers.map((m) => ({ marker: m.marker, genotypes: [m.replicates[0] ?? [], m.personOfInterest], pattern: null, expression: null, latex: null, value: m.lr, log10: m.log10, isExclusion: null, notEvaluated: null }));
  const skipped: MarkerResult[] = result.skippedMarkers.map((m) => ({ marker: m.marker, genotypes: [profiles.replicates[0]!.get(m.marker) ? [...profiles.replicates[0]!.get(m.marker)!] : null, profiles.personOfInterest.get(m.marker) ? [...profiles.personOfInterest.get(m.marker)!] : null], pattern: null, expression: null, latex: null, value: null, log10: null, isExclusion: null, notEvaluated: m.reason }));
  return {
    populationId: population.id,
    populationName: population.name,
    populationSource: population.source,
    synthetic: population.synthetic,
    markers: [...weighed, ...skipped],
    combinedIndex: result.lr,
    log10: result.log10,
    probability: formatHitProbability({ combinedIndex: result.lr, nonExclusionMarkerCount: 0, markerCount: 0, excluded: result.lr === 0, indexName: 'LR' }),
    haplotypeCount: null,
    conclusion: null,
    mixture: result,
  };
}

/** Runs an analysis for a user: the profiles and populations they may read; stores nothing (spec 2.5). */
export async function runAnalysis(db: Db, clock: Clock, user: AuthenticatedUser, id: string, body: AnalyzeBody): Promise<AnalysisResult> {
  if (!can(user, 'Profiles', 'Read')) throw new Forbidden();
  const row = await findAnalysis(db, id);
  if (!row.active) throw new BadRequest(`Analysis ${row.name} is not active`);
  if (row.kind === CONTINUOUS_MIXTURE) throw new BadRequest(`Analysis ${row.name} weighs peak heights: the calculator runs it through POST /api/continuous-lr.`);
  const profiles = await loadProfiles(db, user, row, body.profileIds);
  const constantRows = await db.select().from(analysisConstants).where(eq(analysisConstants.analysisId, row.id)).orderBy(asc(analysisConstants.name));
  const constants = Object.fromEntries(constantRows.map((c) => [c.name, c.value]));
  const formulae = await db.select().from(analysisFormulae).where(eq(analysisFormulae.analysisId, row.id));
  const engine: EngineAnalysis = { kind: row.kind as EngineAnalysis['kind'], profileKind: row.profileKind as EngineAnalysis['profileKind'], roles: row.roles, formulae, constants };
  const order = profiles[0]!.order;
  const engineProfiles = profiles.map((p) => p.engine);
  const run = pedigreeRun(row, body);
  if (body.mixture && row.kind !== 'Mixture') throw new BadRequest(`Analysis ${row.name} is not a mixture analysis; replicates, known contributors and mixture parameters are for mixture analyses.`);
  const mixtureSetting = row.kind === 'Mixture' ? (body.mixture?.setting ?? row.mixture) : null;
  if (row.kind === 'Mixture' && !mixtureSetting) throw new BadRequest(`Analysis ${row.name} has no mixture parameters yet.`);
  const replicates = await loadMixtureProfiles(db, user, body.mixture?.replicateProfileIds ?? [], (i) => `Evidence (replicate ${i + 2})`);
  const knownContributors = await loadMixtureProfiles(db, user, body.mixture?.knownContributorIds ?? [], (i) => `Known contributor ${i + 1}`);
  const mixtureProfiles: MixtureProfiles = { replicates: [engineProfiles[0]!, ...replicates.map((r) => r.engine)], personOfInterest: engineProfiles[1]!, knownContributors: knownContributors.map((k) => k.engine) };

  let populations: PopulationResult[] = [];
  let exclusion: AnalysisResult['exclusion'] = null;
  if (row.kind === 'Exclusion') {
    const result = evaluateExclusion(engine, engineProfiles, order);
    exclusion = { markers: result.markers.map((m) => toMarkerResult(m, constants)), markerCount: result.markerCount, nonExclusionMarkerCount: result.nonExclusionMarkerCount, probability: formatHitProbability(result) };
  } else {
    if (body.populationIds.length === 0) throw new BadRequest('Choose at least one population');
    populations = await Promise.all(
      [...new Set(body.populationIds)].map(async (populationId) => {
        const population = await findVisiblePopulation(db, user, populationId);
        if (population.kind !== row.profileKind) throw new BadRequest(`Population ${population.name} holds ${population.kind === 'YStr' ? 'Y-STR haplotypes' : 'autosomal frequencies'}; this analysis needs ${row.profileKind === 'YStr' ? 'Y-STR haplotypes' : 'autosomal frequencies'}`);
        const loaded = await loadEnginePopulation(db, population);
        if (run) return pedigreePopulationResult(run, row, population, loaded, engineProfiles, order);
        if (mixtureSetting) return mixturePopulationResult(mixtureSetting, mixtureProfiles, population, loaded, { estimateDropout: body.mixture?.estimateDropout ?? false });
        // Y-STR markers match by formula (1/0); the frequencies live in the haplotype table.
        const asFrequencies = row.profileKind === 'YStr' ? { ...loaded.frequencies, markers: new Map(order.map((m) => [m, { frequencies: new Map([['*', 1]]), sampleSize: null }])) } : loaded.frequencies;
        const result = evaluateComputational(engine, engineProfiles, asFrequencies, order);
        const figures = row.profileKind === 'YStr' ? haplotypeResult(result.markers, engineProfiles[0]!, loaded.haplotypes, constants.theta ?? 0) : { combinedIndex: result.combinedIndex, log10: result.log10, haplotypeCount: null };
        return {
          populationId: population.id,
          populationName: population.name,
          populationSource: population.source,
          synthetic: population.synthetic,
          markers: result.markers.map((m) => toMarkerResult(m, constants)),
          combinedIndex: figures.combinedIndex,
          log10: figures.log10 === -Infinity ? null : figures.log10,
          probability: figures.combinedIndex === null ? 'not evaluated' : formatHitProbability({ combinedIndex: figures.combinedIndex, nonExclusionMarkerCount: 0, markerCount: 0, excluded: result.excluded }),
          haplotypeCount: figures.haplotypeCount,
          // GENETICS.md "Parentage with inconsistencies": only analyses with the constant count inconsistent markers.
          conclusion: constants[MAX_INCONSISTENCIES] === undefined ? null : { excluded: result.excluded, inconsistentMarkers: result.inconsistentMarkers, maxInconsistencies: constants[MAX_INCONSISTENCIES] },
        };
      }),
    );
  }
  return {
    analysisId: row.id,
    analysisName: row.name,
    analysisLabel: row.label,
    kind: row.kind as AnalysisResult['kind'],
    roles: [...profiles.map((p, i) => ({ role: row.roles[i]!, profile: p })), ...[...replicates, ...knownContributors].map((p) => ({ role: p.role, profile: p }))].map(({ role, profile: p }) => ({ role, profileId: p.row.id, sampleName: p.row.profileId, caseId: p.row.caseId, caseNumber: p.caseNumber })),
    constants: constantRows.map((c) => ({ name: c.name, notation: c.notation, value: c.value })),
    missingPatterns: await missingPatterns(db, row),
    populations,
    exclusion,
    pedigree: run ? { h1: run.hypotheses.h1, h2: run.hypotheses.h2, target: run.hypotheses.target } : null,
    mutation: run?.mutation ? { ...run.mutation, text: describeSexModels(run.mutation) } : null,
    computedAt: clock.now().toISOString(),
  };
}

/** POST analyses/{id}/analyze (spec 2.5, 7.1): runs an analysis on chosen profiles over chosen populations; stores nothing. */
export const analyzeRoute: FastifyPluginAsyncZod<RouteDeps> = async (app, { db, clock }) => {
  app.post(
    '/analyses/:id/analyze',
    {
      config: { access: { entity: 'Analyses', verb: 'Read' } },
      schema: {
        tags: ['analyses'],
        summary: 'Run an analysis: per marker the genotypes, pattern, formula and value; the combined index and probability per population',
        params: z.object({ id: Id }),
        body: AnalyzeBody,
        response: { 200: AnalysisResult, 400: ErrorBody, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => runAnalysis(db, clock, request.user, request.params.id, request.body),
  );
};
