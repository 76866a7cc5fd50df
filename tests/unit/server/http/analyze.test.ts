import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYNTHETIC_LABEL } from '../../../../core/chance-display';
import type { AnalysisResult } from '../../../../core/schemas/analyses';
import { analyses, caseTypes, populations } from '../../../../server/db/schema';
import { seedReferenceData } from '../../../../server/db/seed/reference-data';
import { SYNTHETIC_POPULATION_NAME } from '../../../../server/db/seed/reference/synthetic-population';
import { identityLikelihoodRatio } from '../../../../server/genetics/statistics';
import { loadEnginePopulation } from '../../../../server/matching/engine-population';
import { csvCell } from '../../../../server/exports/csv';
import { analysisResultCsv, analysisResultDocument } from '../../../../server/reports/analysis-report';
import { createAccessGroup, createOrganization, createUser } from '../../../helpers/factories';
import { createTestApp, type TestApp } from '../../../helpers/app';
import { addProfileWithMarkers, uploadFbiPopulation } from '../../../helpers/calculator-fixtures';

let t: TestApp;
let orgA: string;
let caseId: string;
let populationId: string;
const analysisIds = {} as Record<string, string>;
const tokens = {} as Record<'admin' | 'analystA' | 'analystB', string>;
const GENOTYPES: Record<string, string[]> = {
  CSF1PO: ['10', '12'], D3S1358: ['15', '16'], D5S818: ['11', '12'], D7S820: ['8', '10'], D8S1179: ['13', '14'],
  D13S317: ['11'], D16S539: ['9', '11'], D18S51: ['14', '17'], D21S11: ['29', '30'], FGA: ['21', '24'],
  TH01: ['6', '9.3'], TPOX: ['8'], vWA: ['16', '17'], Amelogenin: ['X', 'Y'],
};

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  await db.transaction((tx) => seedReferenceData(tx, { shareWith: [] }));
  orgA = (await createOrganization(db, 'Oslo Lab')).id;
  const orgB = (await createOrganization(db, 'Bergen Lab')).id;
  const admin = await createAccessGroup(db, { isAdmin: true });
  const analyst = await createAccessGroup(db, { grants: { Cases: ['Read', 'Add', 'Edit'], Profiles: ['Read', 'Add', 'Edit'], Analyses: ['Read'], Populations: ['Read'] } });
  tokens.admin = t.verifier.issue((await createUser(db, { scope: 'All', accessGroupId: admin.id })).id);
  tokens.analystA = t.verifier.issue((await createUser(db, { accessGroupId: analyst.id, organizationIds: [orgA] })).id);
  tokens.analystB = t.verifier.issue((await createUser(db, { accessGroupId: analyst.id, organizationIds: [orgB] })).id);
  for (const a of await db.select().from(analyses)) analysisIds[a.name] = a.id;
  const [caseType] = await db.select().from(caseTypes).limit(1);
  caseId = (await call('analystA', 'POST', '/api/cases', { caseNumber: 'CALC-1', caseTypeId: caseType!.id, organizationId: orgA, assignedUserIds: [] })).json().id;
  populationId = await uploadFbiPopulation(t, tokens.admin, [orgA]);
}, 60_000);
afterAll(() => t.close());

function call(who: keyof typeof tokens, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
  return t.app.inject({ method, url, headers: { authorization: `Bearer ${tokens[who]}` }, ...(payload ? { payload } : {}) });
}

const addProfile = (profileId: string, genotypes: Record<string, string[]>, chemistry = 'GlobalFiler') => addProfileWithMarkers(t, tokens.analystA, caseId, profileId, genotypes, { chemistry });

describe('the analysis calculator API', () => {
  it('runs Identity on two profiles over an uploaded population; the numbers are the engine’s', async () => {
    const evidence = await addProfile('EVIDENCE-1', GENOTYPES);
    const reference = await addProfile('REFERENCE-1', GENOTYPES);
    const res = await call('analystA', 'POST', `/api/analyses/${analysisIds.Identity}/analyze`, { profileIds: [evidence, reference], populationIds: [populationId] });
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json() as AnalysisResult;
    expect(result.roles.map((r) => [r.role, r.sampleName])).toEqual([['Evidence', 'EVIDENCE-1'], ['Reference', 'REFERENCE-1']]);
    const [population] = result.populations;
    const [row] = await t.database.db.select().from(populations).where(eq(populations.id, populationId));
    const { frequencies } = await loadEnginePopulation(t.database.db, row!);
    const engine = identityLikelihoodRatio(new Map(Object.entries(GENOTYPES)), new Map(Object.entries(GENOTYPES)), frequencies, 0.01);
    expect(Math.abs(population!.log10! - engine.log10)).toBeLessThan(1e-9);
    expect(population!.probability).toMatch(/^99\.99% \(CI \d\.\d\de\+\d+\)$/);
    const tpox = population!.markers.find((m) => m.marker === 'TPOX')!;
    expect(tpox).toMatchObject({ pattern: 'PP-PP', genotypes: [['8'], ['8']] });
    expect(tpox.latex).toContain('\\theta');
    expect(population!.markers.find((m) => m.marker === 'Amelogenin')!.notEvaluated).toBe('no allele frequencies for Amelogenin in FBI 2015 Caucasian');
  });

  it('answers an identity on different genotypes with a combined index of 0, the mismatching marker valued 0 without a logarithm', async () => {
    const evidence = await addProfile('EVIDENCE-3', { D3S1358: ['15', '16'], vWA: ['16', '17'] });
    const reference = await addProfile('REFERENCE-3', { D3S1358: ['15', '16'], vWA: ['16', '18'] });
    const res = await call('analystA', 'POST', `/api/analyses/${analysisIds.Identity}/analyze`, { profileIds: [evidence, reference], populationIds: [populationId] });
    expect(res.statusCode, res.body).toBe(200);
    const [population] = (res.json() as AnalysisResult).populations;
    expect(population!.combinedIndex).toBe(0);
    expect(population!.markers.find((m) => m.marker === 'vWA')).toMatchObject({ value: 0, log10: null, notEvaluated: null });
    expect(population!.markers.find((m) => m.marker === 'D3S1358')!.log10).toBeGreaterThan(0);
  });

  it('counts exclusions for an exclusion analysis, with no population', async () => {
    const child = await addProfile('CHILD-1', { D3S1358: ['15', '16'], vWA: ['16', '17'], TH01: ['6', '9.3'] });
    const parent = await addProfile('PARENT-1', { D3S1358: ['16', '18'], vWA: ['17'], TH01: ['8', '10'] });
    const result = (await call('analystA', 'POST', `/api/analyses/${analysisIds['Parent–child exclusion']}/analyze`, { profileIds: [child, parent], populationIds: [] })).json() as AnalysisResult;
    expect(result.exclusion).toMatchObject({ markerCount: 3, nonExclusionMarkerCount: 2, probability: '2/3' });
  });

  it('refuses a profile per role missing, a population of the wrong kind, and another organization’s profiles', async () => {
    const p = await addProfile('ONLY-1', { D3S1358: ['15', '16'] });
    expect((await call('analystA', 'POST', `/api/analyses/${analysisIds.Identity}/analyze`, { profileIds: [p], populationIds: [populationId] })).json().error).toBe('Choose a profile for each role: Evidence, Reference');
    const ystr = (await call('admin', 'POST', '/api/populations', { name: 'Y haplotypes', kind: 'YStr', organizationIds: [orgA] })).json();
    expect((await call('analystA', 'POST', `/api/analyses/${analysisIds.Identity}/analyze`, { profileIds: [p, p], populationIds: [ystr.id] })).statusCode).toBe(400);
    expect((await call('analystB', 'POST', `/api/analyses/${analysisIds.Identity}/analyze`, { profileIds: [p, p], populationIds: [populationId] })).statusCode).toBe(404);
  });

  it('downloads the same result as PDF and CSV', async () => {
    const evidence = await addProfile('EVIDENCE-2', GENOTYPES);
    const reference = await addProfile('REFERENCE-2', GENOTYPES);
    const body = { profileIds: [evidence, reference], populationIds: [populationId] };
    const pdf = await call('analystA', 'POST', `/api/analyses/${analysisIds.Identity}/report`, body);
    expect(pdf.statusCode, pdf.body).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toContain('Identity_EVIDENCE-2_REFERENCE-2.pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const csv = await call('analystA', 'POST', `/api/analyses/${analysisIds.Identity}/report?format=csv`, body);
    const result = (await call('analystA', 'POST', `/api/analyses/${analysisIds.Identity}/analyze`, body)).json() as AnalysisResult;
    const combined = csv.body.split('\r\n').find((l) => l.includes('Combined index'))!;
    expect(combined).toContain(result.populations[0]!.combinedIndex!.toExponential(2));
    expect(csv.body.split('\r\n')[0]).toBe('Population,Marker,Evidence (EVIDENCE-2),Reference (REFERENCE-2),Pattern,Formula,Value,log10,Not evaluated');
  });

  it('reports a pedigree run of four roles: hypotheses, persons, mutation models, likelihoods and verdicts, the marker needing a mutation', async () => {
    // 'Wife and two children': Child 2's paternal FGA 23 is one step from the missing person's 24.
    const missing = await addProfile('MP-REMAINS', { D3S1358: ['15', '16'], vWA: ['16', '17'], TH01: ['6', '9.3'], FGA: ['21', '24'] });
    const wife = await addProfile('MP-WIFE', { D3S1358: ['17', '18'], vWA: ['14', '15'], TH01: ['7', '8'], FGA: ['20', '22'] });
    const childA = await addProfile('MP-CHILD-A', { D3S1358: ['15', '17'], vWA: ['14', '16'], TH01: ['6', '7'], FGA: ['20', '21'] });
    const childB = await addProfile('MP-CHILD-B', { D3S1358: ['16', '18'], vWA: ['15', '17'], TH01: ['8', '9.3'], FGA: ['22', '23'] });
    const body = { profileIds: [missing, wife, childA, childB], populationIds: [populationId] };
    const result = (await call('analystA', 'POST', `/api/analyses/${analysisIds['Wife and two children']}/analyze`, body)).json() as AnalysisResult;
    const models = 'female: stepwise, rate 0.001, rate2 0.00001, range 0.1; male: stepwise, rate 0.003, rate2 0.00001, range 0.1';
    expect(result.mutation!.text).toBe(models);
    const fga = result.populations[0]!.markers.find((m) => m.marker === 'FGA')!;
    expect(fga.pedigree!.verdict).toBe('needs a mutation');

    const csv = (await call('analystA', 'POST', `/api/analyses/${analysisIds['Wife and two children']}/report?format=csv`, body)).body.split('\r\n');
    expect(csv).toEqual(analysisResultCsv(result).split('\r\n'));
    expect(csv[0]).toBe('Population,Marker,Missing person (MP-REMAINS),Wife (MP-WIFE),Child 1 (MP-CHILD-A),Child 2 (MP-CHILD-B),L(H1),L(H2),LR,log10,Verdict,Mutation model,Not evaluated');
    expect(csv).toContain(
      ['FBI 2015 Caucasian', 'FGA', '21, 24', '20, 22', '20, 21', '22, 23', fga.pedigree!.likelihoodH1.toExponential(2), fga.pedigree!.likelihoodH2.toExponential(2), fga.value!.toExponential(2), fga.log10!.toFixed(4), 'needs a mutation', models, ''].map(csvCell).join(','),
    );
    expect(csv.filter((l) => l.includes(',consistent,'))).toHaveLength(3);
    expect(csv).toContain('FBI 2015 Caucasian,Markers needing a mutation,,,,,,,,,,,FGA');
    expect(csv.find((l) => l.startsWith('FBI 2015 Caucasian,LR (H1 / H2)'))).toContain(result.populations[0]!.combinedIndex!.toExponential(2));
    expect(csv).toContain(',H2,,,,,,,,,,,H2: Missing person (MP-REMAINS) is unrelated to the others; the rest of the pedigree as drawn.');
    expect(csv).toContain(`,Mutation models,,,,,,,,,,,"Mutation models, every marker: ${models}"`);
    expect(csv).toContain(',H1 person,,,,,,,,,,,Person: Child 2; Sex: male; Father: Missing person; Mother: Wife; Typed (profile): MP-CHILD-B (case CALC-1)');
    expect(csv).toContain(',H1 person,,,,,,,,,,,Person: Missing person; Sex: male; Typed (profile): MP-REMAINS (case CALC-1); Tested person: yes');

    const pdf = JSON.stringify(analysisResultDocument(result, 'Test User'));
    expect(pdf).toContain(`Mutation models, every marker: ${models}`);
    expect(pdf).toContain('H1: the pedigree as drawn, Missing person (MP-REMAINS) the tested person.');
    expect(pdf).toContain('Markers needing a mutation: FGA');
    expect(pdf.split('"consistent"')).toHaveLength(4);
    expect(pdf).toContain('{"text":"needs a mutation","bold":true');
    // The diagram of H1, drawn as the calculator draws it.
    expect(pdf).toContain('"svg":"<svg xmlns=');
    const file = await call('analystA', 'POST', `/api/analyses/${analysisIds['Wife and two children']}/report`, body);
    expect(file.statusCode, file.body).toBe(200);
    expect(file.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

    // A marker with its own models, one no model explains and an H2 drawn out are printed as such.
    const h2 = result.pedigree!.h2.map((p) => (p.id === 'Missing person' ? { ...p, father: 'Grandfather', mother: 'Grandmother' } : p));
    const varied: AnalysisResult = {
      ...result,
      pedigree: { ...result.pedigree!, h2: [{ id: 'Grandfather', sex: 'male' }, { id: 'Grandmother', sex: 'female' }, ...h2] },
      mutation: { ...result.mutation!, markers: [{ marker: 'FGA', female: { model: 'equal', rate: 0.002 }, male: { model: 'onestep', rate: 0.004 } }] },
      populations: result.populations.map((p) => ({ ...p, excludedMarkers: ['TH01'], markers: p.markers.map((m) => (m.marker === 'TH01' ? { ...m, value: 0, log10: null, pedigree: { ...m.pedigree!, likelihoodH1: 0, verdict: 'excluded' as const } } : m)) })),
    };
    const variedPdf = JSON.stringify(analysisResultDocument(varied, 'Test User'));
    expect(variedPdf).toContain('Mutation models, FGA: female: equal, rate 0.002; male: onestep, rate 0.004');
    expect(variedPdf).toContain('H2: the alternative pedigree as drawn.');
    expect(variedPdf.split('"svg":')).toHaveLength(3);
    expect(variedPdf).toContain('Excluded markers (no mutation model explains them; LR 0): TH01');
    expect(variedPdf).toContain('{"text":"excluded","bold":true');
    const variedCsv = analysisResultCsv(varied).split('\r\n');
    expect(variedCsv).toContain(',Mutation models,,,,,,,,,,,"Mutation models, FGA: female: equal, rate 0.002; male: onestep, rate 0.004"');
    expect(variedCsv).toContain('FBI 2015 Caucasian,Excluded markers,,,,,,,,,,,TH01');
    expect(variedCsv).toContain(',H2 person,,,,,,,,,,,Person: Missing person; Sex: male; Father: Grandfather; Mother: Grandmother; Typed (profile): MP-REMAINS (case CALC-1); Tested person: yes');
    expect(variedCsv.find((l) => l.startsWith('FBI 2015 Caucasian,TH01,'))).toContain(',excluded,');
  });

  it('labels every figure computed with the synthetic demo population as synthetic, in the answer, the CSV and the PDF', async () => {
    const [synthetic] = await t.database.db.select().from(populations).where(eq(populations.name, SYNTHETIC_POPULATION_NAME));
    const evidence = await addProfile('EVIDENCE-S', GENOTYPES);
    const reference = await addProfile('REFERENCE-S', GENOTYPES);
    const body = { profileIds: [evidence, reference], populationIds: [populationId, synthetic!.id] };
    const res = await call('admin', 'POST', `/api/analyses/${analysisIds.Identity}/analyze`, body);
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json() as AnalysisResult;
    expect(result.populations.map((p) => [p.populationName, p.synthetic])).toEqual([
      ['FBI 2015 Caucasian', false],
      [SYNTHETIC_POPULATION_NAME, true],
    ]);

    const csv = (await call('admin', 'POST', `/api/analyses/${analysisIds.Identity}/report?format=csv`, body)).body.split('\r\n');
    const combined = csv.filter((l) => l.includes('Combined index'));
    expect(combined).toHaveLength(2);
    expect(combined.find((l) => l.startsWith('FBI 2015 Caucasian'))).not.toContain(SYNTHETIC_LABEL);
    // Every row of the synthetic population carries the label, its combined index included.
    const syntheticRows = csv.filter((l) => l.includes(SYNTHETIC_POPULATION_NAME));
    expect(syntheticRows.length).toBeGreaterThan(13);
    for (const line of syntheticRows) expect(line).toContain(SYNTHETIC_LABEL);

    const pdf = JSON.stringify(analysisResultDocument(result, 'Test User'));
    expect(pdf.split(SYNTHETIC_LABEL)).toHaveLength(4); // the synthetic population's conclusion, heading and combined figures, not FBI's
  });
});
