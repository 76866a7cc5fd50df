import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { can } from '../../../core/permissions';
import { ErrorBody } from '../../../core/schemas/common';
import { ContinuousSearchSetting } from '../../../core/schemas/continuous';
import { MixtureSearchAnswer, MixtureSearchBody, type MixtureSetting } from '../../../core/schemas/mixtures';
import { appendAudit } from '../../audit/audit-trail';
import type { Clock } from '../../clock';
import type { Db } from '../../db/database';
import { cases, profiles } from '../../db/schema';
import { MixtureError } from '../../genetics/mixture/mixture-lr';
import { describeHypothesis } from '../../genetics/mixture/weigh-mixture';
import type { AuthenticatedUser } from '../../identity/load-principal';
import { loadMatchIndexes } from '../../matching/load-indexes';
import { MatchingService } from '../../matching/matching-service';
import { loadMatchPopulations, type PopulationStatistics } from '../../matching/load-search-inputs';
import type { rankMixture } from '../../matching/mixture-ranking';
import type { ContinuousStain, rankContinuous } from '../../matching/continuous-search';
import type { RulePopulationResult } from '../../matching/rule-match';
import type { Genotype, PopulationFrequencies } from '../../genetics/types';
import { loadStainHeights } from '../../search/load-stain-heights';
import { searchOn, type SearchPool } from '../../search/search-pool';
import { auditActor } from '../audit-actor';
import { BadRequest, Forbidden } from '../errors';
import { findAnalysis } from '../analyses/analysis-view';
import { findVisiblePopulation } from '../populations/visibility';
import { inReachableOrganizations } from '../tenancy';
import type { RouteDeps } from '../route-deps';
import { mixtureProfile } from './mixture-lr-route';

export interface MixtureSearchDeps extends RouteDeps {
  matching?: MatchingService | (() => MatchingService | Promise<MatchingService>);
  /** The search workers the ranking runs on; without them, here. */
  pool?: SearchPool;
  /** The populations' statistics: the search queue's cache when the server keeps one, else read for each search. */
  statistics?: PopulationStatistics;
}

/**
 * The ranked mixture search (issue 17): the evidence's replicates and known contributors weighed against every
 * approved reference of the searched sample types in the organizations the user reaches there; stores only an audit
 * row (never the alleles).
 */
export async function mixtureSearch(db: Db, clock: Clock, user: AuthenticatedUser, body: MixtureSearchBody, matching: MatchingService, pool?: SearchPool, statistics: PopulationStatistics = loadMatchPopulations): Promise<MixtureSearchAnswer> {
  const analysis = await findAnalysis(db, body.analysisId);
  if (analysis.kind !== 'Mixture' || !analysis.mixture) throw new BadRequest(`${analysis.name} is not a mixture analysis.`, [{ path: '/analysisId', message: 'Choose a mixture analysis' }]);
  const setting = body.setting ?? analysis.mixture;
  if (body.knownContributors.length + 1 > setting.contributors) throw new BadRequest(`Hp holds the candidate and ${body.knownContributors.length} known contributor(s): the number of contributors must be at least ${body.knownContributors.length + 1}.`, [{ path: '/setting/contributors', message: 'Too few' }]);
  const populationRows = await Promise.all([...new Set(body.populationIds)].map((id) => findVisiblePopulation(db, user, id)));
  const wrong = populationRows.find((p) => p.kind !== 'Autosomal');
  if (wrong) throw new BadRequest(`Population ${wrong.name} holds Y-STR haplotypes; a mixture needs autosomal frequencies.`, [{ path: '/populationIds', message: 'Autosomal only' }]);
  const replicates = await Promise.all(body.replicates.map((r, i) => mixtureProfile(db, user, r, `Replicate ${i + 1}`)));
  const knownContributors = await Promise.all(body.knownContributors.map((k, i) => mixtureProfile(db, user, k, `Known contributor ${i + 1}`)));
  const populations = await statistics(db, populationRows.map((p) => p.id));
  const searchAll = body.organizationId === 'all';
  const reach = (organizationId: string) => (searchAll ? user.scope === 'All' || user.organizationIds.includes(organizationId) : organizationId === body.organizationId);
  const masks = Object.fromEntries(matching.indexes.indexes('Autosomal').map((index) => [index.chemistryId, index.groupMask((g) => reach(g.organizationId) && body.searchedSampleTypes.includes(g.sampleType))]));
  const excludeIds = new Set([...body.replicates, ...body.knownContributors].flatMap((p) => ('profileId' in p ? [p.profileId] : [])));
  if (body.model === 'continuous') return continuousSearch(db, clock, user, body, { analysisId: analysis.id, setting, populationRows, populations, knownContributors, masks, excludeIds, matching, pool, searchAll });
  let ranked: ReturnType<typeof rankMixture>;
  try {
    // The ranking runs on a search worker (ARCHITECTURE.md "Using every core"); this thread answers others meanwhile.
    ranked = await searchOn<ReturnType<typeof rankMixture>>(pool, matching.indexes, 'Autosomal', {
      task: 'mixture',
      ranking: { evidence: { replicates, knownContributors }, setting, populations: populations.map((p) => ({ id: p.id, frequencies: p.frequencies })), excludeIds, minMarkers: body.minMarkers, limit: body.limit },
      masks,
    });
  } catch (error) {
    if (error instanceof MixtureError) throw new BadRequest(error.message);
    throw error;
  }
  const byId = await candidateRows(db, user, ranked.candidates.map((c) => c.profileId));
  const known = knownContributors.length;
  const answer: MixtureSearchAnswer = {
    setting,
    populations: populationRows.map((p) => {
      const used = ranked.parameters.get(p.id);
      // Under Hp the candidate takes the person of interest's place, as in hp below.
      const dropoutHdRule = used?.hdRule?.replace("the person of interest's", "the candidate's") ?? null;
      return { populationId: p.id, populationName: p.name, synthetic: p.synthetic, dropout: used?.dropout ?? [], dropoutHd: used?.dropoutHd ?? used?.dropout ?? [], dropoutHdRule, notEvaluated: ranked.skipped.find((s) => s.populationId === p.id)?.reason ?? null, continuousHd: null };
    }),
    model: 'semi-continuous',
    continuous: null,
    hp: describeHypothesis(true, known, setting.contributors - 1 - known).replace('the person of interest', 'the candidate'),
    hd: describeHypothesis(false, known, setting.contributors - known),
    searchedProfiles: ranked.searched,
    truncated: ranked.truncated,
    candidates: ranked.candidates.flatMap((c) => {
      const row = byId.get(c.profileId);
      if (!row) return [];
      return [
        {
          profileId: c.profileId,
          sampleName: row.sampleName,
          sampleType: row.sampleType,
          caseId: row.caseId,
          caseNumber: row.caseNumber,
          results: c.populations.map(candidateResult(ranked.searched)),
        },
      ];
    }),
  };
  await auditSearch(db, clock, user, body, analysis.id, answer);
  return answer;
}

/** The search's audit row: what was asked and how many were listed (never the alleles). */
async function auditSearch(db: Db, clock: Clock, user: AuthenticatedUser, body: MixtureSearchBody, analysisId: string, answer: MixtureSearchAnswer): Promise<void> {
  await db.transaction((tx) =>
    appendAudit(tx, auditActor(user), clock, {
      entity: 'MixtureSearch',
      entityId: randomUUID(),
      action: 'Search',
      organizationId: body.organizationId === 'all' ? null : body.organizationId,
      after: { analysisId, model: answer.model, replicates: body.replicates.length, knownContributors: body.knownContributors.length, populationIds: body.populationIds, searchedSampleTypes: body.searchedSampleTypes, candidateCount: answer.candidates.length },
    }),
  );
}

/** A candidate's figures in one population as the answer lists them (N × p the expected chance hits at its LR). */
const candidateResult = (searched: number) => (p: RulePopulationResult) => ({
  populationId: p.populationId!,
  lr: p.combinedIndex ?? 0,
  log10: p.log10,
  markerCount: p.markerCount,
  pValue: p.chance?.pValue ?? null,
  expectedChanceHits: p.chance ? searched * (p.chance.pValue ?? 0) : 0,
  continuous: p.continuous ?? null,
});

/** The answer's rows of listed references the user may still see (approved, in a reachable organization), in the ranking's order. */
async function candidateRows(db: Db, user: AuthenticatedUser, ids: readonly string[]) {
  const rows = ids.length === 0 ? [] : await db
    .select({ id: profiles.id, sampleName: profiles.profileId, sampleType: profiles.sampleType, caseId: profiles.caseId, caseNumber: cases.caseNumber })
    .from(profiles)
    .innerJoin(cases, eq(cases.id, profiles.caseId))
    .where(and(inArray(profiles.id, [...ids]), eq(profiles.status, 'approved'), inReachableOrganizations(profiles.organizationId, user)));
  return new Map(rows.map((r) => [r.id, r]));
}

interface ContinuousSearchInputs {
  analysisId: string;
  setting: MixtureSetting;
  populationRows: { id: string; name: string; synthetic: boolean }[];
  populations: { id: string; frequencies: PopulationFrequencies }[];
  knownContributors: ReadonlyMap<string, Genotype>[];
  masks: Record<string, Uint8Array>;
  excludeIds: ReadonlySet<string>;
  matching: MatchingService;
  pool: SearchPool | undefined;
  searchAll: boolean;
}

/**
 * The mixture search with the continuous model (issue 31): the stored replicates' peak heights, Hd fitted once per
 * population, every reference scored from the tables on a search worker, each listed one fitted again under Hp.
 */
async function continuousSearch(db: Db, clock: Clock, user: AuthenticatedUser, body: MixtureSearchBody, inputs: ContinuousSearchInputs): Promise<MixtureSearchAnswer> {
  const stored = body.replicates.flatMap((r, i) => ('profileId' in r ? [{ id: r.profileId, i }] : []));
  if (stored.length !== body.replicates.length) throw new BadRequest('The continuous model weighs peak heights: give the evidence as stored profiles with heights.', [{ path: '/replicates', message: 'Stored profiles with heights' }]);
  const rows = await db.select({ id: profiles.id, chemistryId: profiles.chemistryId, name: profiles.profileId }).from(profiles).where(inArray(profiles.id, stored.map((s) => s.id)));
  const replicates: ContinuousStain['replicates'] = [];
  const markerThresholds = new Map<string, number>();
  const fragmentSizes = new Map<string, { alleles: ReadonlyMap<string, number>; longest: number | undefined }>();
  let analyticalThreshold: number | null = null;
  for (const { id, i } of stored) {
    const row = rows.find((r) => r.id === id)!;
    const heights = await loadStainHeights(db, id, row.chemistryId);
    if (!heights) throw new BadRequest(`Replicate ${i + 1} (${row.name}) has no peak heights: the continuous model cannot weigh it. Choose the semi-continuous model, or import the stain with its heights.`, [{ path: `/replicates/${i}`, message: 'No peak heights' }]);
    replicates.push(...heights.replicates);
    for (const [m, t] of heights.markerThresholds) markerThresholds.set(m, t);
    for (const [m, f] of heights.fragmentSizes) fragmentSizes.set(m, f);
    analyticalThreshold ??= heights.analyticalThreshold;
  }
  // The kit's analytical threshold unless the request sets one.
  const continuous = ContinuousSearchSetting.parse({ ...(analyticalThreshold === null ? {} : { analyticalThreshold }), ...body.continuous });
  let ranked: ReturnType<typeof rankContinuous>;
  try {
    ranked = await searchOn<ReturnType<typeof rankContinuous>>(inputs.pool, inputs.matching.indexes, 'Autosomal', {
      task: 'continuous',
      ranking: { stain: { replicates, markerThresholds, fragmentSizes, knownContributors: inputs.knownContributors }, setting: inputs.setting, continuous, populations: inputs.populations, excludeIds: inputs.excludeIds, minMarkers: body.minMarkers, limit: body.limit },
      masks: inputs.masks,
    });
  } catch (error) {
    if (error instanceof MixtureError) throw new BadRequest(error.message);
    throw error;
  }
  const byId = await candidateRows(db, user, ranked.candidates.map((c) => c.profileId));
  const known = inputs.knownContributors.length;
  const answer: MixtureSearchAnswer = {
    setting: inputs.setting,
    populations: inputs.populationRows.map((p) => {
      const lane = ranked.lanes.find((l) => l.populationId === p.id);
      const hd = lane?.hd;
      return {
        populationId: p.id,
        populationName: p.name,
        synthetic: p.synthetic,
        dropout: [],
        dropoutHd: [],
        dropoutHdRule: null,
        notEvaluated: ranked.skipped.find((s) => s.populationId === p.id)?.reason ?? null,
        continuousHd: hd?.parameters && hd.logLikelihood !== null ? { parameters: hd.parameters, logLikelihood: hd.logLikelihood, fit: hd.fit } : null,
      };
    }),
    model: 'continuous',
    continuous,
    hp: describeHypothesis(true, known, inputs.setting.contributors - 1 - known).replace('the person of interest', 'the candidate'),
    hd: describeHypothesis(false, known, inputs.setting.contributors - known),
    searchedProfiles: ranked.searched,
    truncated: ranked.truncated,
    candidates: ranked.candidates.flatMap((c) => {
      const row = byId.get(c.profileId);
      return row ? [{ profileId: c.profileId, sampleName: row.sampleName, sampleType: row.sampleType, caseId: row.caseId, caseNumber: row.caseNumber, results: c.populations.map(candidateResult(ranked.searched)) }] : [];
    }),
  };
  await auditSearch(db, clock, user, body, inputs.analysisId, answer);
  return answer;
}

/** POST mixture-search (issue 17): the LR-ranked database search for a mixture; Profiles Read in the body's organization. */
export const mixtureSearchRoute: FastifyPluginAsyncZod<MixtureSearchDeps> = async (app, { db, clock, matching, pool, statistics }) => {
  // Without an injected matcher the approved profiles are indexed from the database for each search (correct, not fast).
  const matcher = async () => (matching ? (typeof matching === 'function' ? matching() : matching) : new MatchingService(await loadMatchIndexes(db)));
  app.post(
    '/mixture-search',
    {
      config: { access: { entity: 'Profiles', verb: 'Read' } },
      schema: {
        tags: ['profiles'],
        summary: 'Mixture search: the references ranked by their LR as contributors to a mixture (semi-continuous model), with every parameter and the chance figures',
        body: MixtureSearchBody,
        response: { 200: MixtureSearchAnswer, 400: ErrorBody, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => {
      if (!can(request.user, 'Profiles', 'Read', { orgId: request.body.organizationId })) throw new Forbidden();
      if (!can(request.user, 'Analyses', 'Read')) throw new Forbidden();
      return mixtureSearch(db, clock, request.user, request.body, await matcher(), pool, statistics);
    },
  );
};
