import { eq, inArray } from 'drizzle-orm';
import type { SampleType } from '../../../core/schemas/profiles';
import type { SearchRuleInput } from '../../../core/schemas/search-rules';
import type { Db } from '../database';
import { MIXTURE_SEARCH_ANALYSIS } from '../../genetics/seed-analyses';
import { analyses, searchRules, settings } from '../schema';

const FORENSIC: SampleType[] = ['Forensic, Unknown', 'Forensic Mixture'];
const OFFENDERS: SampleType[] = ['Convicted Offender', 'Arrestee', 'Suspect, Known'];
const PARENTS_AND_CHILDREN: SampleType[] = ['Biological Mother', 'Biological Father', 'Biological Child', 'Alleged Father', 'Alleged Mother'];
const REMAINS: SampleType[] = ['Unidentified Human (Remains)'];

type SeedRule = Omit<SearchRuleInput, 'analysisId' | 'populationIds' | 'active'> & { analysis: string };

const identity = (name: string, searching: SampleType[], searched: SampleType[]): SeedRule => ({
  name,
  trigger: 'approval',
  searchingSampleTypes: searching,
  searchedSampleTypes: searched,
  analysis: 'Identity',
  stringency: 'moderate',
  minMarkers: 8,
  maxMismatches: 0,
  thresholdKind: 'likelihood-ratio',
  threshold: null,
});

const kinship = (name: string, trigger: SeedRule['trigger'], analysis: string, searching: SampleType[], searched: SampleType[]): SeedRule => ({
  name,
  trigger,
  searchingSampleTypes: searching,
  searchedSampleTypes: searched,
  analysis,
  stringency: null,
  minMarkers: 8,
  maxMismatches: 0,
  thresholdKind: 'likelihood-ratio',
  threshold: null,
});

/**
 * The seed search policy (ARCHITECTURE.md "Search policy", modelled on CODIS): forensic profiles against
 * forensic, offender, arrestee and suspect profiles and back (identity, moderate); unidentified remains
 * against missing persons (identity) and their biological relatives (parent–child, full siblings),
 * both ways — missing-person work runs automatically; elimination profiles against the forensic ones
 * and back (contamination). Familial searching of offenders runs only on request. Thresholds are the
 * analyses' own.
 */
export const SEED_SEARCH_RULES: readonly SeedRule[] = [
  identity('Forensic unknowns against forensic, offender, arrestee and suspect profiles', FORENSIC, [...FORENSIC, ...OFFENDERS]),
  identity('Offenders, arrestees and suspects against forensic unknowns', OFFENDERS, FORENSIC),
  identity('Unidentified remains against missing persons', REMAINS, ['Missing Person']),
  identity('Missing persons against unidentified remains', ['Missing Person'], REMAINS),
  kinship('Unidentified remains against parents and children (parent–child)', 'approval', 'Parent–child', REMAINS, PARENTS_AND_CHILDREN),
  kinship('Parents and children against unidentified remains (parent–child)', 'approval', 'Parent–child', PARENTS_AND_CHILDREN, REMAINS),
  kinship('Unidentified remains against siblings (full siblings)', 'approval', 'Full siblings', REMAINS, ['Biological Sibling']),
  kinship('Siblings against unidentified remains (full siblings)', 'approval', 'Full siblings', ['Biological Sibling'], REMAINS),
  identity('Elimination profiles against forensic unknowns (contamination)', ['Elimination, Known'], FORENSIC),
  identity('Forensic unknowns against elimination profiles (contamination)', FORENSIC, ['Elimination, Known']),
  kinship('Familial search of offenders and arrestees (parent–child)', 'request', 'Parent–child', ['Forensic, Unknown'], ['Convicted Offender', 'Arrestee']),
  kinship('Familial search of offenders and arrestees (full siblings)', 'request', 'Full siblings', ['Forensic, Unknown'], ['Convicted Offender', 'Arrestee']),
];

/**
 * The seed mixture rule (issue 17): an approved forensic mixture weighs every offender, arrestee and suspect profile
 * as a possible contributor and records those over the analysis's LR as pending hits, ranked by LR. Written with the
 * mixture analyses (server/db/seed/upgrades/mixture-analyses.ts), so older databases get it too.
 */
export const SEED_MIXTURE_RULES: readonly SeedRule[] = [
  {
    name: 'Forensic mixtures against offender, arrestee and suspect profiles (mixture LR)',
    trigger: 'approval',
    searchingSampleTypes: ['Forensic Mixture'],
    searchedSampleTypes: OFFENDERS,
    analysis: MIXTURE_SEARCH_ANALYSIS,
    stringency: null,
    minMarkers: 8,
    maxMismatches: 0,
    thresholdKind: 'likelihood-ratio',
    threshold: null,
  },
];

/** Writes the given seed rules whose analysis exists (a rule of that name already there is kept as it is). */
export async function insertSeedRules(tx: Db, rules: readonly SeedRule[]): Promise<number> {
  const names = [...new Set(rules.map((r) => r.analysis))];
  if (names.length === 0) return 0;
  const found = new Map((await tx.select({ id: analyses.id, name: analyses.name }).from(analyses).where(inArray(analyses.name, names))).map((a) => [a.name, a.id]));
  const rows = rules.flatMap(({ analysis, ...rule }) => (found.has(analysis) ? [{ ...rule, analysisId: found.get(analysis)! }] : []));
  if (rows.length > 0) await tx.insert(searchRules).values(rows).onConflictDoNothing();
  return rows.length;
}

/** The settings key that says the seed rules were written once (an administrator may delete them afterwards). */
const SEEDED = 'seed:search-rules';

/**
 * Writes the seed search rules once per database (a fresh one, or one created before search rules):
 * rules whose analysis is missing are left out. Later calls change nothing, so rules an administrator
 * deleted stay deleted. Returns how many rules it wrote.
 */
export async function seedSearchRules(tx: Db): Promise<number> {
  const [done] = await tx.select({ id: settings.id }).from(settings).where(eq(settings.id, SEEDED));
  if (done) return 0;
  const written = await insertSeedRules(tx, SEED_SEARCH_RULES);
  await tx.insert(settings).values({ id: SEEDED, text: new Date().toISOString() }).onConflictDoNothing();
  return written;
}
