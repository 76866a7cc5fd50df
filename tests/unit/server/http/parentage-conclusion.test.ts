/**
 * GENETICS.md "Parentage with inconsistencies" through the API: a true full-sibling pair run through
 * Parent–child reads Excluded (never "98.60%"), in the calculator's answer, its CSV and PDF, and HitView.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnalysisResult } from '../../../../core/schemas/analyses';
import type { HitView } from '../../../../core/schemas/hits';
import { analyses, caseTypes } from '../../../../server/db/schema';
import { seedReferenceData } from '../../../../server/db/seed/reference-data';
import { recordHitCandidates } from '../../../../server/hits/record-hits';
import { createAccessGroup, createOrganization, createUser } from '../../../helpers/factories';
import { createTestApp, type TestApp } from '../../../helpers/app';
import { addProfileWithMarkers, uploadFbiPopulation } from '../../../helpers/calculator-fixtures';

let t: TestApp;
let orgId: string;
let caseId: string;
let populationId: string;
const analysisIds = {} as Record<string, string>;
const tokens = {} as Record<'admin' | 'analyst' | 'reviewer', string>;

// Two full siblings: D3S1358 and vWA share no allele (each got the other parental allele), the rest share one or two.
const SIBLING_1 = { D3S1358: ['15', '16'], vWA: ['16', '17'], FGA: ['21', '24'], TH01: ['6', '9.3'], TPOX: ['8'], D18S51: ['14', '17'], CSF1PO: ['10', '12'], D8S1179: ['13', '14'] };
const SIBLING_2 = { D3S1358: ['17', '18'], vWA: ['14', '18'], FGA: ['21', '22'], TH01: ['6', '7'], TPOX: ['8', '11'], D18S51: ['14', '17'], CSF1PO: ['10', '11'], D8S1179: ['13'] };
const EXCLUDED = 'Excluded: 2 markers inconsistent with the relationship (D3S1358, vWA), more than the 1 allowed';

function call(who: keyof typeof tokens, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
  return t.app.inject({ method, url, headers: { authorization: `Bearer ${tokens[who]}` }, ...(payload ? { payload } : {}) });
}

const addProfile = (profileId: string, genotypes: Record<string, string[]>) => addProfileWithMarkers(t, tokens.analyst, caseId, profileId, genotypes);

const profileIds = {} as Record<'sibling1' | 'sibling2', string>;

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  await db.transaction((tx) => seedReferenceData(tx, { shareWith: [] }));
  orgId = (await createOrganization(db, 'Oslo Lab')).id;
  tokens.admin = t.verifier.issue((await createUser(db, { scope: 'All', accessGroupId: (await createAccessGroup(db, { isAdmin: true })).id })).id);
  const analyst = await createAccessGroup(db, { grants: { Cases: ['Read', 'Add', 'Edit'], Profiles: ['Read', 'Add', 'Edit'], Analyses: ['Read'], Populations: ['Read'], Hits: ['Read'] } });
  tokens.analyst = t.verifier.issue((await createUser(db, { accessGroupId: analyst.id, organizationIds: [orgId] })).id);
  tokens.reviewer = tokens.analyst;
  for (const a of await db.select().from(analyses)) analysisIds[a.name] = a.id;
  const [caseType] = await db.select().from(caseTypes).limit(1);
  caseId = (await call('analyst', 'POST', '/api/cases', { caseNumber: 'SIB-1', caseTypeId: caseType!.id, organizationId: orgId, assignedUserIds: [] })).json().id;
  populationId = await uploadFbiPopulation(t, tokens.admin, [orgId]);
  profileIds.sibling1 = await addProfile('SIB-A', SIBLING_1);
  profileIds.sibling2 = await addProfile('SIB-B', SIBLING_2);
}, 60_000);
afterAll(() => t.close());

const body = () => ({ profileIds: [profileIds.sibling1, profileIds.sibling2], populationIds: [populationId] });

describe('Parent–child on a full-sibling pair', () => {
  it('answers Excluded: combined index 0, no logarithm, the two inconsistent markers named, probability "Excluded"', async () => {
    const res = await call('analyst', 'POST', `/api/analyses/${analysisIds['Parent–child']}/analyze`, body());
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json() as AnalysisResult;
    expect(result.constants).toContainEqual({ name: 'maxInconsistencies', notation: '\\mathrm{max}_{\\mathrm{inc}}', value: 1 });
    const [population] = result.populations;
    expect(population).toMatchObject({ combinedIndex: 0, log10: null, probability: 'Excluded', conclusion: { excluded: true, inconsistentMarkers: ['D3S1358', 'vWA'], maxInconsistencies: 1 } });
    // The inconsistent markers keep their μ/A values; the conclusion, not the product, decides.
    expect(population!.markers.find((m) => m.marker === 'vWA')).toMatchObject({ pattern: 'PQ-RS', expression: 'mu/A' });
  });

  it('one inconsistent marker is within the allowance: the μ/A product and a percentage', async () => {
    const lenientSibling = await addProfile('SIB-C', { ...SIBLING_2, vWA: ['17', '18'] });
    const result = (await call('analyst', 'POST', `/api/analyses/${analysisIds['Parent–child']}/analyze`, { ...body(), profileIds: [profileIds.sibling1, lenientSibling] })).json() as AnalysisResult;
    const [population] = result.populations;
    expect(population!.conclusion).toEqual({ excluded: false, inconsistentMarkers: ['D3S1358'], maxInconsistencies: 1 });
    expect(population!.combinedIndex).toBeGreaterThan(0);
    expect(population!.probability).toMatch(/^\d+\.\d\d% \(CI /);
  });

  it('analyses without the constant carry no conclusion (Full siblings reads as before)', async () => {
    const result = (await call('analyst', 'POST', `/api/analyses/${analysisIds['Full siblings']}/analyze`, body())).json() as AnalysisResult;
    expect(result.populations[0]!.conclusion).toBeNull();
    expect(result.populations[0]!.probability).toMatch(/% \(CI /);
  });

  it('the CSV states the conclusion under the combined index; the PDF is produced', async () => {
    const csv = await call('analyst', 'POST', `/api/analyses/${analysisIds['Parent–child']}/report?format=csv`, body());
    expect(csv.statusCode, csv.body).toBe(200);
    const lines = csv.body.split('\r\n');
    expect(lines.find((l) => l.includes('Combined index'))).toMatch(/,0\.00e\+0,,Excluded$/);
    expect(lines.find((l) => l.includes(',Conclusion,'))).toBe(`FBI 2015 Caucasian,Conclusion,,,,,,,"${EXCLUDED}"`);
    const pdf = await call('analyst', 'POST', `/api/analyses/${analysisIds['Parent–child']}/report`, body());
    expect(pdf.statusCode).toBe(200);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('HitView of a Parent–child hit recorded before the allowance reads Excluded with the markers', async () => {
    const [hit] = await t.database.db.transaction((tx) =>
      recordHitCandidates(tx as never, {
        organizationId: orgId,
        candidates: [
          {
            analysisId: analysisIds['Parent–child']!,
            populationId,
            profiles: [
              { role: 'Child', profileId: profileIds.sibling1 },
              { role: 'Alleged parent', profileId: profileIds.sibling2 },
            ],
            combinedIndex: 70.7,
            markerCount: 8,
            nonExclusionMarkerCount: null,
          },
        ],
      }),
    );
    const res = await call('reviewer', 'GET', `/api/hits/${hit!.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const view = res.json() as HitView;
    expect(view.evaluation).toMatchObject({ combinedIndex: 0, probability: 'Excluded', conclusion: { excluded: true, inconsistentMarkers: ['D3S1358', 'vWA'], maxInconsistencies: 1 } });
    const download = await call('reviewer', 'GET', `/api/hits/${hit!.id}/download`);
    expect(download.statusCode).toBe(200);
  });
});
