import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import { CONTINUOUS_MIXTURE } from '../../../core/schemas/analyses';
import type { SearchRuleInput } from '../../../core/schemas/search-rules';
import type { Db } from '../../db/database';
import { analyses, populations, searchRules } from '../../db/schema';
import { BadRequest } from '../errors';

/** One field error of a 400 (ARCHITECTURE.md "Calls": field-level details). */
export interface RuleProblem {
  path: string;
  message: string;
}

export const DUPLICATE_NAME = 'A search rule with this name exists';
export const SYNTHETIC_IN_AUTOMATIC_SEARCH = 'The synthetic demo population cannot take part in automatic searches';

/** The 400 for a name another rule has (case-insensitive). */
export const duplicateName = () => new BadRequest(DUPLICATE_NAME, [{ path: '/name', message: DUPLICATE_NAME }]);

const NUMBER_WORDS = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];
const roles = (n: number) => `${NUMBER_WORDS[n] ?? String(n)} role${n === 1 ? '' : 's'}`;
const profileKindText = (kind: string) => (kind === 'YStr' ? 'Y-STR' : 'autosomal');

/**
 * What the database cannot check for a rule (ARCHITECTURE.md "Search policy"): the analysis exists
 * and compares two profiles; an identity stringency or an expected-chance-hits threshold needs a
 * computational autosomal analysis; the populations exist, hold the analysis's kind of statistics,
 * and the synthetic demo population stays out of automatic searches; names are unique.
 */
export async function ruleProblems(db: Db, input: SearchRuleInput, ruleId: string | null): Promise<RuleProblem[]> {
  const problems: RuleProblem[] = [];
  const sameName = and(sql`lower(${searchRules.name}) = lower(${input.name})`, ruleId ? ne(searchRules.id, ruleId) : undefined);
  const [clash] = await db.select({ id: searchRules.id }).from(searchRules).where(sameName).limit(1);
  if (clash) problems.push({ path: '/name', message: DUPLICATE_NAME });

  const [analysis] = await db
    .select({ name: analyses.name, kind: analyses.kind, profileKind: analyses.profileKind, roles: analyses.roles })
    .from(analyses)
    .where(eq(analyses.id, input.analysisId));
  const identityCapable = analysis?.kind === 'Computational' && analysis.profileKind === 'Autosomal';
  // A mixture's LR over unrelated candidates has a distribution too (server/matching/mixture-search.ts).
  const chanceCapable = identityCapable || analysis?.kind === 'Mixture';
  if (!analysis) {
    problems.push({ path: '/analysisId', message: 'No such analysis' });
  } else if (analysis.kind === 'Pedigree') {
    problems.push({ path: '/analysisId', message: `${analysis.name} is a pedigree analysis: a family searches from its missing-person case, not by a rule` });
  } else if (analysis.kind === CONTINUOUS_MIXTURE) {
    problems.push({ path: '/analysisId', message: `${analysis.name} weighs peak heights in the calculator; a search rule cannot run it yet` });
  } else if (analysis.kind === 'Mixture' && input.trigger !== 'approval') {
    problems.push({ path: '/trigger', message: `${analysis.name} is a mixture analysis: its rule runs on approval (a ranked list on request is the mixture search)` });
  } else if (analysis.roles.length !== 2) {
    problems.push({ path: '/analysisId', message: `A database search compares two profiles; the analysis ${analysis.name} has ${roles(analysis.roles.length)}` });
  }
  if (analysis && input.stringency !== null && !identityCapable) {
    problems.push({ path: '/stringency', message: `An identity stringency needs a computational analysis of autosomal profiles; ${analysis.name} is not one` });
  }
  if (input.thresholdKind === 'expected-chance-hits') {
    if (analysis && !chanceCapable) {
      problems.push({ path: '/thresholdKind', message: `Expected chance hits need a computational or mixture analysis of autosomal profiles; ${analysis.name} is not one` });
    }
    if (input.stringency !== null) problems.push({ path: '/thresholdKind', message: 'An identity rule (with a stringency) has no expected chance hits threshold' });
    if (input.threshold === null) problems.push({ path: '/threshold', message: 'Give the most chance hits a search may expect' });
  }

  const ids = input.populationIds;
  const twice = ids.filter((id, i) => ids.indexOf(id) !== i);
  if (twice.length > 0) problems.push({ path: '/populationIds', message: 'A population is listed twice' });
  const found = ids.length > 0 ? await db.select({ id: populations.id, name: populations.name, kind: populations.kind, synthetic: populations.synthetic }).from(populations).where(inArray(populations.id, ids)) : [];
  if (found.length < new Set(ids).size) problems.push({ path: '/populationIds', message: 'No such population' });
  for (const population of found) {
    if (analysis && population.kind !== analysis.profileKind) {
      problems.push({ path: '/populationIds', message: `Population ${population.name} holds ${profileKindText(population.kind)} statistics; ${analysis.name} compares ${profileKindText(analysis.profileKind)} profiles` });
    }
  }
  if (input.trigger === 'approval' && found.some((p) => p.synthetic)) problems.push({ path: '/populationIds', message: SYNTHETIC_IN_AUTOMATIC_SEARCH });
  return problems;
}

/** Refuses a rule with problems: 400 with the first as the message and all of them as field details. */
export async function assertRuleValid(db: Db, input: SearchRuleInput, ruleId: string | null): Promise<void> {
  const problems = await ruleProblems(db, input, ruleId);
  if (problems[0]) throw new BadRequest(problems[0].message, problems);
}
