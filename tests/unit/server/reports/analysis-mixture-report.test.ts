/**
 * Issue 17 in the calculator's PDF and CSV: a mixture run states its hypotheses, every parameter (the drop-out per
 * contributor under each hypothesis), both drop-out estimates, per marker what was seen and who explains it with
 * Pr(E|Hp), Pr(E|Hd) and the LR, the markers not weighed, and the LR per population.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYNTHETIC_LABEL } from '../../../../core/chance-display';
import type { AnalysisResult } from '../../../../core/schemas/analyses';
import { analyses, caseTypes } from '../../../../server/db/schema';
import { seedReferenceData } from '../../../../server/db/seed/reference-data';
import { analysisResultCsv, analysisResultDocument } from '../../../../server/reports/analysis-report';
import { renderPdf } from '../../../../server/reports/pdf';
// The calculator stories' mixture run (examples only), so the screen and these reports show the same figures.
import { MIXTURE_LR, MIXTURE_POPULATION, MIXTURE_RESULT } from '../../../../stories/analyses/mixture-fixtures';
import { createTestApp, type TestApp } from '../../../helpers/app';
import { addProfileWithMarkers, uploadFbiPopulation } from '../../../helpers/calculator-fixtures';
import { pdfToText } from '../../../helpers/pdf-text';
import { createAccessGroup, createOrganization, createUser } from '../../../helpers/factories';

const pdfText = (result: AnalysisResult) => JSON.stringify(analysisResultDocument(result, 'Test User'));
/** A figure as the PDF prints it, unbroken: plain, or mantissa × 10 with the exponent raised. */
const raised = (text: string) => `{"text":"${text}","noWrap":true}`;
/** JavaScript's exponent form (1.76e+1), which the PDF never prints. */
const E_NOTATION = /\d\.\d+e[+-]\d/;

describe('the PDF of a mixture run', () => {
  it('states Hp and Hd, and the parameters every population shares', () => {
    const text = pdfText(MIXTURE_RESULT);
    expect(text).toContain('{"text":[{"text":"Hp: ","bold":true},"the person of interest, 1 known contributor and 1 unknown"]}');
    expect(text).toContain('{"text":[{"text":"Hd: ","bold":true},"1 known contributor and 2 unknowns"]');
    expect(text).toContain('["Contributors",{"text":"3"}]');
    expect(text).toContain('["Drop-out",{"text":"Estimated — maximum likelihood per hypothesis"}]');
    expect(text).toContain('["Drop-in (c)",{"text":"0.05"}]');
    expect(text).toContain('["θ",{"text":"0.01"}]');
    expect(text).toContain('["Person of interest counted under Hd (θ)",{"text":"yes"}]');
    expect(text).toContain('["Frequencies normalized after the minimum allele frequency rule",{"text":"no"}]');
  });

  it('gives per population the LR and log10 LR, the drop-out of each contributor under Hp and Hd and the minimum allele frequency', () => {
    const text = pdfText(MIXTURE_RESULT);
    // LR = 50.2 × 0.120 × 2.92 = 17.6.
    expect(text).toContain(`{"text":["LR (Hp / Hd): ",${raised('17.6')},"    log10 LR: 1.24"],"bold":true`);
    // Under Hd an unknown takes the person of interest's place, with its drop-out.
    expect(text).toContain('["Drop-out under Hp",{"text":["Person of interest ",{"text":"0.0812"},"; Known contributor 1 ",{"text":"0.0812"},"; Unknown 1 ",{"text":"0.0812"}]}]');
    expect(text).toContain('["Drop-out under Hd",{"text":["Unknown 1 ",{"text":"0.123"},"; Known contributor 1 ",{"text":"0.123"},"; Unknown 2 ",{"text":"0.123"}]}]');
    expect(text).toContain('["Minimum allele frequency",{"text":"0.00155"}]');
    expect(text).not.toMatch(E_NOTATION);
  });

  it('tables both drop-out estimates: maximum likelihood, the conservative 95th percentile, accepted of tried', () => {
    const text = pdfText(MIXTURE_RESULT);
    expect(text).toContain('[{"text":"Hypothesis","bold":true},{"text":"Maximum likelihood","bold":true},{"text":"Conservative (95th percentile)","bold":true},{"text":"Accepted / tried","bold":true}]');
    expect(text).toContain('["Hp",{"text":"0.0812"},{"text":"0.204"},"1874 / 10000"]');
    expect(text).toContain('["Hd",{"text":"0.123"},{"text":"0.256"},"1312 / 10000"]');
    expect(text).toContain('Simulations accepted when they reproduce the 9 alleles seen; seed 17.');
  });

  it('prints per marker the alleles of each replicate, the typed persons, explained, dropped out and unexplained alleles, Pr(E|Hp), Pr(E|Hd) and the LR', () => {
    const text = pdfText(MIXTURE_RESULT);
    for (const header of ['Alleles seen', 'Known contributors', 'Explained', 'Dropped out', 'Pr(E|Hp)', 'Pr(E|Hd)', 'LR']) expect(text).toContain(`{"text":"${header}","bold":true}`);
    // vWA: 4.2e-6 / 3.5e-5 = 0.12; the person of interest's 17 dropped out, 19 a drop-in or the unknown's.
    expect(text).toContain(`["vWA","R1: 16, 18, 19\\nR2: 16, 18","16, 17","K1: 18","16, 18","17","19",${raised('4.20 × 10⁻⁶')},${raised('3.50 × 10⁻⁵')},${raised('0.12')}]`);
    expect(text).toContain('Markers not weighed: D2S441 (the person of interest is not typed here)');
    // No formula table's columns.
    expect(text).not.toContain('{"text":"Pattern","bold":true}');
  });

  it('marks a marker of LR 0, leaves out the known contributors’ column without any and says how drop-out was fixed', () => {
    const fga = { ...MIXTURE_LR.markers[0]!, marker: 'FGA', replicates: [['20', '22']], knownContributors: [], explained: [], droppedOut: ['21', '24'], unexplained: ['20', '22'], likelihoodHp: 0, lr: 0, log10: null };
    const parameters = { ...MIXTURE_LR.parameters, contributors: 2, dropout: { mode: 'fixed' as const, values: [0.05, 0.2] }, dropoutHp: [0.05, 0.2], dropoutHd: [0.05, 0.2], hp: 'the person of interest and 1 unknown', hd: '2 unknowns' };
    const result: AnalysisResult = { ...MIXTURE_RESULT, roles: MIXTURE_RESULT.roles.slice(0, 2), populations: [{ ...MIXTURE_POPULATION, combinedIndex: 0, log10: null, mixture: { ...MIXTURE_LR, parameters, markers: [fga], skippedMarkers: [], lr: 0, log10: null } }] };
    const text = pdfText(result);
    expect(text).toContain('[{"text":"FGA (LR 0)","bold":true,"color":"#a33"},"20, 22","15, 16","—","21, 24","20, 22",{"text":"0","noWrap":true}');
    expect(text).not.toContain('{"text":"Known contributors","bold":true}');
    expect(text).toContain('["Drop-out",{"text":"Fixed, one value per contributor"}]');
    expect(text).toContain('["Drop-out under Hd",{"text":["Unknown 1 ",{"text":"0.05"},"; Unknown 2 ",{"text":"0.2"}]}]');
    expect(text).toContain('"    log10 LR: — (LR 0)"');
    expect(text).not.toContain('Markers not weighed');
  });

  it('sets the LR of each population side by side, and labels the synthetic one', () => {
    const synthetic = { ...MIXTURE_POPULATION, populationId: '3d0f4a5b-6c7d-4e8f-9091-a2b3c4d5e6f7', populationName: 'Synthetic demo', synthetic: true, mixture: { ...MIXTURE_LR, lr: 0.0342, log10: Math.log10(0.0342) } };
    const text = pdfText({ ...MIXTURE_RESULT, populations: [MIXTURE_POPULATION, synthetic] });
    expect(text).toContain(`["FBI 2015 Caucasian",${raised('17.6')},"1.24"]`);
    expect(text).toContain(`["Synthetic demo",${raised('0.0342')},"-1.47"]`);
    expect(text).toContain(`"    log10 LR: -1.47","  ",{"text":"${SYNTHETIC_LABEL}","bold":true`);
  });

  it('prints on a landscape page, in the embedded font (θ as itself)', async () => {
    expect(analysisResultDocument(MIXTURE_RESULT, 'Test User').pageOrientation).toBe('landscape');
    const pdf = await renderPdf(analysisResultDocument(MIXTURE_RESULT, 'Test User'));
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdfToText(pdf);
    expect(text).toMatch(/θ\s+0\.01/);
    expect(text).toMatch(/Drop-out under Hd\s+Unknown 1 0\.123; Known contributor 1 0\.123; Unknown 2 0\.123/);
    expect(text).toContain('Person of interest counted under Hd (θ)');
    expect(text).not.toMatch(E_NOTATION);
  });
});

describe('the CSV of a mixture run', () => {
  const lines = () => analysisResultCsv(MIXTURE_RESULT).split('\r\n');

  it('has a row per marker: alleles per replicate, typed persons, explained, dropped out, unexplained, frequencies, Pr(E|Hp), Pr(E|Hd), LR and log10', () => {
    expect(lines()[0]).toBe('Population,Marker,Alleles seen,Person of interest,Known contributors,Explained,Dropped out,Unexplained (drop-in or unknown),Allele frequencies,Pr(E|Hp),Pr(E|Hd),LR,log10,Note');
    expect(lines()).toContain('FBI 2015 Caucasian,vWA,"R1: 16, 18, 19; R2: 16, 18","16, 17",K1: 18,"16, 18",17,19,16=0.1; 18=0.1; 19=0.1; other=0.7,4.20e-6,3.50e-5,1.20e-1,-0.9208,');
    expect(lines()).toContain('FBI 2015 Caucasian,D2S441,,,,,,,,,,,,not weighed: the person of interest is not typed here');
    expect(lines()).toContain('FBI 2015 Caucasian,LR (Hp / Hd),,,,,,,,,,1.76e+1,1.2448,');
  });

  it('states the hypotheses, every parameter as used (exact) and both drop-out estimates', () => {
    const note = (label: string, text: string) => `FBI 2015 Caucasian,${label},,,,,,,,,,,,${text}`;
    expect(lines()).toEqual(
      expect.arrayContaining([
        note('Hp', '"the person of interest, 1 known contributor and 1 unknown"'),
        note('Hd', '1 known contributor and 2 unknowns'),
        note('Contributors', '3'),
        note('Drop-out', 'Estimated — maximum likelihood per hypothesis'),
        note('Drop-out under Hp', 'Person of interest 0.0812; Known contributor 1 0.0812; Unknown 1 0.0812'),
        note('Drop-out under Hd', 'Unknown 1 0.1234; Known contributor 1 0.1234; Unknown 2 0.1234'),
        note('Drop-in (c)', '0.05'),
        note('θ', '0.01'),
        note('Person of interest counted under Hd (θ)', 'yes'),
        note('Frequencies normalized', 'no'),
        note('Minimum allele frequency', '0.00155'),
        note('"Drop-out estimate, Hp"', 'maximum likelihood 0.0812; conservative (95th percentile) 0.2041; accepted 1874 of 10000; alleles seen 9; seed 17'),
        note('"Drop-out estimate, Hd"', 'maximum likelihood 0.1234; conservative (95th percentile) 0.2561; accepted 1312 of 10000; alleles seen 9; seed 17'),
      ]),
    );
  });
});

describe('POST analyses/{id}/report of a mixture run', () => {
  let t: TestApp;
  let token: string;
  let caseId: string;
  let populationId: string;
  let analysisId: string;

  beforeAll(async () => {
    t = await createTestApp();
    const db = t.database.db;
    await db.transaction((tx) => seedReferenceData(tx, { shareWith: [] }));
    const orgId = (await createOrganization(db, 'Oslo Lab')).id;
    const admin = t.verifier.issue((await createUser(db, { scope: 'All', accessGroupId: (await createAccessGroup(db, { isAdmin: true })).id })).id);
    const analyst = await createAccessGroup(db, { grants: { Cases: ['Read', 'Add', 'Edit'], Profiles: ['Read', 'Add', 'Edit'], Analyses: ['Read'], Populations: ['Read'] } });
    token = t.verifier.issue((await createUser(db, { accessGroupId: analyst.id, organizationIds: [orgId] })).id);
    analysisId = (await db.select().from(analyses)).find((a) => a.name === 'Mixture, 2 contributors')!.id;
    const [caseType] = await db.select().from(caseTypes).limit(1);
    caseId = (await t.app.inject({ method: 'POST', url: '/api/cases', headers: { authorization: `Bearer ${token}` }, payload: { caseNumber: 'MX-1', caseTypeId: caseType!.id, organizationId: orgId, assignedUserIds: [] } })).json().id;
    populationId = await uploadFbiPopulation(t, admin, [orgId]);
  }, 60_000);
  afterAll(() => t.close());

  it('downloads the calculator’s figures with the run’s own parameters, a second replicate and a known contributor, as CSV and PDF', async () => {
    const add = (name: string, genotypes: Record<string, string[]>, sampleType: 'Reference' | 'Forensic Mixture') => addProfileWithMarkers(t, token, caseId, name, genotypes, { sampleType });
    const stain = await add('STAIN-1', { D3S1358: ['14', '15', '16', '17'], vWA: ['16', '17', '18'], TH01: ['6', '9.3'] }, 'Forensic Mixture');
    const replicate = await add('STAIN-1-R2', { D3S1358: ['14', '15', '17'], vWA: ['16', '18'], TH01: ['6', '9.3'] }, 'Forensic Mixture');
    const suspect = await add('SUSPECT-A', { D3S1358: ['15', '16'], vWA: ['16', '17'], TH01: ['6'] }, 'Reference');
    const victim = await add('VICTIM-B', { D3S1358: ['14', '17'], vWA: ['18'], TH01: ['9.3'] }, 'Reference');
    const setting = { contributors: 3, dropout: { mode: 'fixed', values: [0.1] }, dropIn: 0.05, theta: 0.02, personOfInterestTypedUnderHd: true, normalizeFrequencies: false };
    const body = { profileIds: [stain, suspect], populationIds: [populationId], mixture: { replicateProfileIds: [replicate], knownContributorIds: [victim], setting } };
    const post = (url: string) => t.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${token}` }, payload: body });
    const analyzed = await post(`/api/analyses/${analysisId}/analyze`);
    expect(analyzed.statusCode, analyzed.body).toBe(200);
    const result = analyzed.json() as AnalysisResult;

    const csv = await post(`/api/analyses/${analysisId}/report?format=csv`);
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.body.split('\r\n')).toEqual(analysisResultCsv(result).split('\r\n'));
    expect(csv.body).toContain('FBI 2015 Caucasian,Drop-out under Hd,,,,,,,,,,,,Unknown 1 0.1; Known contributor 1 0.1; Unknown 2 0.1');
    expect(csv.body).toContain('FBI 2015 Caucasian,θ,,,,,,,,,,,,0.02');
    expect(csv.body).toContain(`FBI 2015 Caucasian,LR (Hp / Hd),,,,,,,,,,${result.populations[0]!.mixture!.lr.toExponential(2)},`);

    const pdf = await post(`/api/analyses/${analysisId}/report`);
    expect(pdf.statusCode, pdf.body).toBe(200);
    expect(pdf.headers['content-disposition']).toContain('Mixture_2_contributors_STAIN-1_SUSPECT-A_STAIN-1-R2_VICTIM-B.pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  // Issue 30: both hypotheses' drop-outs and the convention that set Hd's, in the PDF and the CSV alike.
  it('states Hp’s and Hd’s drop-outs and the convention used: LRmix’s by default, the user’s when Hd’s are given', async () => {
    const add = (name: string, genotypes: Record<string, string[]>, sampleType: 'Reference' | 'Forensic Mixture') => addProfileWithMarkers(t, token, caseId, name, genotypes, { sampleType });
    const stain = await add('STAIN-HD', { D3S1358: ['14', '15', '16', '17'], vWA: ['16', '17', '18'] }, 'Forensic Mixture');
    const suspect = await add('SUSPECT-HD', { D3S1358: ['15', '16'], vWA: ['16', '17'] }, 'Reference');
    const victim = await add('VICTIM-HD', { D3S1358: ['14', '17'], vWA: ['18'] }, 'Reference');
    // Person of interest 0.1, known contributor 0.2, the unknown 0.3 (the ESX17 stain51 case's values).
    const report = (dropout: Record<string, unknown>, format: 'csv' | 'pdf') => {
      const setting = { contributors: 3, dropout: { mode: 'fixed', values: [0.1, 0.2, 0.3], ...dropout }, dropIn: 0.05, theta: 0.01, personOfInterestTypedUnderHd: true, normalizeFrequencies: false };
      const payload = { profileIds: [stain, suspect], populationIds: [populationId], mixture: { replicateProfileIds: [], knownContributorIds: [victim], setting } };
      return t.app.inject({ method: 'POST', url: `/api/analyses/${analysisId}/report?format=${format}`, headers: { authorization: `Bearer ${token}` }, payload });
    };
    const row = (label: string, text: string) => `FBI 2015 Caucasian,${label},,,,,,,,,,,,${text}`;
    const lrmix = "LRmix convention: Hd's unknown in the person of interest's place takes the unknowns' drop-out (LRmix Studio, forensim)";

    const csv = (await report({}, 'csv')).body.split('\r\n');
    expect(csv).toContain(row('Drop-out under Hp', 'Person of interest 0.1; Known contributor 1 0.2; Unknown 1 0.3'));
    // The unknown in the person of interest's place takes the unknowns' 0.3, not the person of interest's 0.1.
    expect(csv).toContain(row('Drop-out under Hd', 'Unknown 1 0.3; Known contributor 1 0.2; Unknown 2 0.3'));
    expect(csv).toContain(row('How Hd’s drop-outs were set', `"${lrmix}"`));
    const rawPdf = (await report({}, 'pdf')).rawPayload;
    const pdf = pdfToText(rawPdf).replace(/\s+/g, ' ');
    expect(pdf).toContain('Drop-out under Hp Person of interest 0.1; Known contributor 1 0.2; Unknown 1 0.3');
    expect(pdf).toContain('Drop-out under Hd Unknown 1 0.3; Known contributor 1 0.2; Unknown 2 0.3');
    expect(pdf).toContain(`How Hd’s drop-outs were set ${lrmix}`);

    const given = (await report({ hdValues: [0.15, 0.25, 0.35] }, 'csv')).body.split('\r\n');
    expect(given).toContain(row('Drop-out under Hd', 'Unknown 1 0.15; Known contributor 1 0.25; Unknown 2 0.35'));
    expect(given).toContain(row('How Hd’s drop-outs were set', "Hd's drop-outs set by the user"));
    const givenPdf = pdfToText((await report({ hdValues: [0.15, 0.25, 0.35] }, 'pdf')).rawPayload).replace(/\s+/g, ' ');
    expect(givenPdf).toContain('Drop-out under Hd Unknown 1 0.15; Known contributor 1 0.25; Unknown 2 0.35');
    expect(givenPdf).toContain("How Hd’s drop-outs were set Hd's drop-outs set by the user");
  });
});
