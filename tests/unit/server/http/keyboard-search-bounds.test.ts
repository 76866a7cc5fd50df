/**
 * The keyboard search's cost is bounded (issue 29): it runs the analyses its form names (same-source ones when it
 * names none), lists the strongest 200 and counts the others, with p-values for those listed. 250 identical approved
 * references are indexed at start-up, as a large database is.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KeyboardSearchAnalyses, KeyboardSearchAnswer } from '../../../../core/schemas/keyboard-search';
import type { Database } from '../../../../server/db/database';
import { analyses, cases, caseTypes, chemistries, markers, profiles } from '../../../../server/db/schema';
import { seedReferenceData } from '../../../../server/db/seed/reference-data';
import { writeMarkerValues } from '../../../../server/http/profiles/marker-values';
import { createTestApp, type TestApp } from '../../../helpers/app';
import { uploadFbiPopulation } from '../../../helpers/calculator-fixtures';
import { freshPglite } from '../../../helpers/database';
import { createAccessGroup, createOrganization, createUser } from '../../../helpers/factories';

const URL = '/api/profiles/get-all-possible-hits';
const PLANTED: Record<string, string[]> = {
  CSF1PO: ['10', '12'], D3S1358: ['15', '16'], D5S818: ['11', '12'], D7S820: ['8', '10'], D8S1179: ['13', '14'],
  D13S317: ['11'], D16S539: ['9', '11'], D18S51: ['14', '17'], D21S11: ['29', '30'], FGA: ['21', '24'],
  TH01: ['6', '9.3'], TPOX: ['8'], vWA: ['16', '17'],
};
// A full sibling of the planted profile: both alleles shared at some markers, one at others, so it fails the stringency
// (moderate: neither allele set holds the other at the one-shared markers) while its full-sibling LR is far over 1,000.
const SIBLING: Record<string, string[]> = {
  ...PLANTED, CSF1PO: ['10', '11'], D3S1358: ['15', '17'], D5S818: ['11', '13'], D7S820: ['8', '11'], D8S1179: ['13', '15'], D21S11: ['29', '31'],
};
const REFERENCES = 250;

let database: Database;
let t: TestApp;
let orgId: string;
let token: string;
let chemistryId: string;
let populationId: string;
let siblingId: string;
const markerIds = new Map<string, string>();
const analysisIds = new Map<string, string>();

const values = (genotypes: Record<string, string[]>) => Object.entries(genotypes).map(([m, alleles]) => ({ markerId: markerIds.get(m)!, alleles }));
async function search(payload: object) {
  const res = await t.app.inject({ method: 'POST', url: URL, headers: { authorization: `Bearer ${token}` }, payload: { organizationId: orgId, chemistryId, markerValues: values(PLANTED), populationIds: [populationId], ...payload } });
  return res;
}
async function answerOf(payload: object): Promise<KeyboardSearchAnswer> {
  const res = await search(payload);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as KeyboardSearchAnswer;
}

beforeAll(async () => {
  database = await freshPglite();
  const db = database.db;
  await db.transaction((tx) => seedReferenceData(tx, { shareWith: [] }));
  orgId = (await createOrganization(db, 'Oslo Lab')).id;
  for (const m of await db.select().from(markers)) markerIds.set(m.name, m.id);
  for (const a of await db.select().from(analyses)) analysisIds.set(a.name, a.id);
  chemistryId = (await db.select().from(chemistries).where(eq(chemistries.name, 'GlobalFiler')))[0]!.id;
  const [caseType] = await db.select().from(caseTypes).limit(1);
  const [caseRow] = await db.insert(cases).values({ caseNumber: 'KB-BIG', caseTypeId: caseType!.id, organizationId: orgId }).returning();
  const approved = async (sampleName: string, genotypes: Record<string, string[]>) => {
    const [row] = await db.insert(profiles).values({ profileId: sampleName, caseId: caseRow!.id, organizationId: orgId, kind: 'Autosomal', chemistryId, sampleType: 'Convicted Offender', status: 'approved' }).returning();
    await writeMarkerValues(db, row!.id, values(genotypes).map((v, position) => ({ ...v, position })));
    return row!.id;
  };
  for (let i = 0; i < REFERENCES; i++) await approved(`REF-${String(i).padStart(3, '0')}`, PLANTED);
  siblingId = await approved('SIBLING', SIBLING);
  // The server indexes the approved profiles at start-up.
  t = await createTestApp({ database });
  const admin = await createAccessGroup(db, { isAdmin: true });
  const adminToken = t.verifier.issue((await createUser(db, { scope: 'All', accessGroupId: admin.id })).id);
  const analyst = await createAccessGroup(db, { grants: { Cases: ['Read'], Profiles: ['Read'], Populations: ['Read'] } });
  token = t.verifier.issue((await createUser(db, { accessGroupId: analyst.id, organizationIds: [orgId] })).id);
  populationId = await uploadFbiPopulation(t, adminToken, [orgId]);
}, 120_000);
afterAll(() => t.close());

describe('keyboard search bounds (issue 29)', () => {
  it('lists the 200 strongest of 250 identical references, by sample name among equals, and counts the 50 not shown', async () => {
    const answer = await answerOf({});
    expect(answer.candidates).toHaveLength(200);
    expect(answer).toMatchObject({ candidateCount: 250, notShown: 50, truncated: true, candidateLimit: 200, searchedProfiles: REFERENCES + 1 });
    expect(answer.scanLimit).toBeGreaterThan(200);
    expect(answer.candidates.map((c) => c.sampleName)).toEqual(Array.from({ length: 200 }, (_, i) => `REF-${String(i).padStart(3, '0')}`));
  });

  it('runs the same-source analyses when none is named, with a p-value on every listed result; kinship only when ticked', async () => {
    const answer = await answerOf({});
    for (const c of answer.candidates) {
      expect(c.results.map((r) => r.analysisName)).toEqual(['Identity']);
      expect(c.results[0]!.pValue).toBeGreaterThan(0);
    }
    expect(answer.candidates.map((c) => c.profileId)).not.toContain(siblingId);

    const ticked = await answerOf({ analysisIds: [analysisIds.get('Identity'), analysisIds.get('Full siblings')] });
    // The sibling is found by the full-sibling scan only: one more candidate, still not among the 200 listed (identity matches are stronger).
    expect(ticked).toMatchObject({ candidateCount: 251, notShown: 51 });
    expect(ticked.candidates.every((c) => c.results.some((r) => r.analysisName === 'Full siblings' && r.pValue !== null))).toBe(true);
  });

  it('finds a relative by the analysis ticked, and weighs nothing when no analysis is ticked', async () => {
    const siblingOnly = await answerOf({ markerValues: values(SIBLING), analysisIds: [analysisIds.get('Full siblings')], stringency: 'high' });
    // The sibling meets high stringency against itself; the 250 references are found by the full-sibling scan (LR over 1,000).
    expect(siblingOnly.candidateCount).toBe(251);
    expect(siblingOnly.candidates[0]!.profileId).toBe(siblingId);
    const reference = siblingOnly.candidates[1]!;
    expect(reference.stringencyMet).toBe(false);
    expect(reference.results).toEqual([expect.objectContaining({ analysisName: 'Full siblings', overThreshold: true })]);

    const none = await answerOf({ analysisIds: [] });
    expect(none.candidateCount).toBe(250);
    expect(none.candidates.every((c) => c.results.length === 0)).toBe(true);
  });

  it('refuses an analysis it cannot run (400 naming it)', async () => {
    const res = await search({ analysisIds: [analysisIds.get('Paternity trio')] });
    expect(res.statusCode).toBe(400);
    expect((res.json().details as { path: string }[]).map((d) => d.path)).toEqual(['/analysisIds/0']);
  });

  it('offers the analyses of a kind for the form, the same-source ones first and ticked by default', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/profiles/keyboard-search-analyses?kind=Autosomal', headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode, res.body).toBe(200);
    const { items } = res.json() as KeyboardSearchAnalyses;
    expect(items[0]).toMatchObject({ name: 'Identity', byDefault: true });
    expect(items.filter((a) => a.byDefault).map((a) => a.name)).toEqual(['Identity']);
    expect(items.map((a) => a.name)).toEqual(expect.arrayContaining(['Full siblings', 'Parent–child', 'Parent–child exclusion']));
    expect(items.map((a) => a.name)).not.toContain('Paternity trio');
  });
});
