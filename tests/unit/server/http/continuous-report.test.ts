/**
 * The PDF and CSV of a continuous calculation (issue 31): every parameter, the log-likelihoods per marker and in
 * total, the LR, the deconvolution and the validation, read back from the PDF's text and the parsed CSV.
 */
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeWorkerPools } from '../../../../server/jobs/worker-pool';
import { createAccessGroup, createOrganization, createUser } from '../../../helpers/factories';
import { createTestApp, type TestApp } from '../../../helpers/app';
import { pdfToText } from '../../../helpers/pdf-text';

let t: TestApp;
let token = '';
let clerk = '';

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const org = (await createOrganization(db, 'Oslo Lab')).id;
  const analyst = await createAccessGroup(db, { grants: { Analyses: ['Read'], Populations: ['Read'], Profiles: ['Read'] } });
  const clerks = await createAccessGroup(db, { grants: { Cases: ['Read'] } });
  token = t.verifier.issue((await createUser(db, { accessGroupId: analyst.id, organizationIds: [org] })).id);
  clerk = t.verifier.issue((await createUser(db, { accessGroupId: clerks.id, organizationIds: [org] })).id);
}, 60_000);
afterAll(async () => {
  await closeWorkerPools();
  await t.close();
});

const report = (format: 'pdf' | 'csv', payload: object, who = token) => t.app.inject({ method: 'POST', url: `/api/continuous-lr/report?format=${format}`, headers: { authorization: `Bearer ${who}` }, payload });

// EuroForMix 4.2.4's case 1 (as tests/unit/server/http/continuous-lr.test.ts): log L −12.243159334338957 under Hp, −14.545744427254087 under Hd.
const CASE_1 = {
  contributors: 1,
  replicates: [{ markers: [{ marker: 'D3S1358', peaks: [{ allele: '15', height: 1000 }, { allele: '17', height: 800 }] }] }],
  personOfInterest: { name: 'Suspect A', markers: [{ marker: 'D3S1358', alleles: ['15', '17'] }] },
  frequencies: { markers: [{ marker: 'D3S1358', alleles: Object.entries({ 14: 0.1, 15: 0.25, 16: 0.25, 17: 0.2, 18: 0.15, 19: 0.05 }).map(([allele, frequency]) => ({ allele, frequency })) }] },
  normalizeFrequencies: false,
  parameters: { mode: 'fixed', hp: { mx: [1], mu: 900, sigma: 0.15 }, hd: { mx: [1], mu: 900, sigma: 0.15 } },
};

describe('the report of a continuous calculation', () => {
  it('prints the LR, every parameter, the log-likelihoods per marker and in total, the deconvolution and the validation in the PDF', async () => {
    const res = await report('pdf', CASE_1);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const text = pdfToText(res.rawPayload);
    // log10 LR = (−12.2431593 + 14.5457444) / ln 10 = 1.0000; LR 10.
    expect(text).toMatch(/LR \(Hp \/ Hd\): 10\s+log10 LR: 1\.0000/);
    expect(text).toMatch(/D3S1358\s+50\s+R1: 15 \(1000\), 17 \(800\)\s+15, 17\s+−12\.2432\s+−14\.5457\s+1\.0000\s+10/);
    expect(text).toMatch(/Mx 1 \(mixture proportion\)\s+1 \(Person of interest\)\s+1 \(Unknown 1\)/);
    expect(text).toMatch(/μ \(peak height expectation, RFU\)\s+900\s+900/);
    expect(text).toMatch(/σ \(coefficient of variation\)\s+0\.15\s+0\.15/);
    expect(text).toMatch(/log-likelihood \(natural log\)\s+−12\.2432\s+−14\.5457/);
    expect(text).toMatch(/Degradation model\s+off/);
    expect(text).toMatch(/Drop-in probability \(c\)\s+0\.05/);
    expect(text).toMatch(/Person of interest\s+Suspect A, written out in the request/);
    expect(text).toContain('IEEE 754 double precision');
    // 15/17 with probability 1 to four digits; the next as a power of ten.
    expect(text).toMatch(/Unknown 1\s+D3S1358\s+15\/17 1; 15\/15 7\.891 × 10⁻¹¹/);
    expect(text).toContain('Hp: 2 peaks');
    // The PP-plot's axes carry their tick labels (0 … 1, horizontal row) and the envelope is drawn and named.
    expect(text).toMatch(/\n\s*0\s+0\.25\s+0\.5\s+0\.75\s+1\s+0\s+0\.25\s+0\.5\s+0\.75\s+1\s*\n/);
    expect(text).toContain('99% simultaneous envelope');
    expect(text).toContain('Observed and expected heights per marker');
    expect(text).not.toMatch(/\d\.\d+e[+-]\d/);
  });

  it('names each replicate as the request named it (R1, R2… otherwise) in the PDF and the CSV', async () => {
    const named = { ...CASE_1, replicates: [{ ...CASE_1.replicates[0], name: 'stain80' }, CASE_1.replicates[0]] };
    const pdf = pdfToText((await report('pdf', named)).rawPayload);
    expect(pdf).toMatch(/Replicate\s+Name\s+R1\s+stain80\s+R2\s+R2/);
    const [, ...rows] = Papa.parse<string[]>((await report('csv', named)).body.trim()).data;
    expect(rows.filter((r) => r[0] === 'Replicate').map((r) => [r[4], r[7]])).toEqual([['1', 'stain80'], ['2', 'R2']]);
  });

  it('writes every figure with all its digits in the CSV, and the fit and the contributor search when asked', async () => {
    const res = await report('csv', { ...CASE_1, parameters: { mode: 'fit', starts: 2, seed: 7 }, contributorSearch: { from: 1, to: 2 } });
    expect(res.statusCode, res.body).toBe(200);
    const [header, ...rows] = Papa.parse<string[]>(res.body.trim()).data;
    expect(header).toEqual(['Section', 'Hypothesis', 'Marker', 'Contributor', 'Replicate', 'Allele', 'Item', 'Value']);
    const value = (section: string, item: string, cells: Partial<Record<'hypothesis' | 'marker' | 'contributor' | 'allele', string>> = {}) =>
      rows.find((r) => r[0] === section && r[6] === item && (cells.hypothesis ?? r[1]) === r[1] && (cells.marker ?? r[2]) === r[2] && (cells.contributor ?? r[3]) === r[3] && (cells.allele ?? r[5]) === r[5])?.[7];
    const hp = Number(value('Hypothesis', 'log-likelihood', { hypothesis: 'Hp' }));
    const hd = Number(value('Hypothesis', 'log-likelihood', { hypothesis: 'Hd' }));
    expect(Number(value('Result', 'log10 LR'))).toBeCloseTo((hp - hd) / Math.LN10, 12);
    expect(Number(value('Per marker', 'log-likelihood', { hypothesis: 'Hp', marker: 'D3S1358' }))).toBe(hp);
    expect(value('Setting', 'Parameters')).toBe('fit');
    expect(value('Fit', 'Seed', { hypothesis: 'Hp' })).toBe('7');
    expect(value('Fit', 'Starts', { hypothesis: 'Hd' })).toBe('2');
    expect(Number(value('Fit', 'Starts agreeing', { hypothesis: 'Hp' }))).toBeGreaterThanOrEqual(1);
    expect(Number(value('Parameter', 'Mx', { hypothesis: 'Hp', contributor: 'Person of interest' }))).toBe(1);
    expect(Number(value('Parameter', 'μ', { hypothesis: 'Hd' }))).toBeGreaterThan(0);
    expect(value('Peak', 'Height (RFU)', { marker: 'D3S1358', allele: '17' })).toBe('800');
    expect(Number(value('Deconvolution', 'Posterior probability', { hypothesis: 'Hd', contributor: 'Unknown 1', allele: '15/17' }))).toBeGreaterThan(0.9);
    expect(rows.filter((r) => r[0] === 'PP-plot' && r[1] === 'Hp').map((r) => [r[4], r[5]])).toEqual([['1', '15'], ['1', '17']]);
    expect(rows.filter((r) => r[0] === 'Contributor search' && r[6] === 'Best').map((r) => r[7])).toHaveLength(2);
    expect(value('Setting', 'Precision')).toMatch(/double precision/);
  });

  it('refuses what POST continuous-lr refuses, with the reason, and a user without Analyses Read', async () => {
    const bad = await report('pdf', { ...CASE_1, parameters: { mode: 'fixed', hp: { mx: [0.9], mu: 900, sigma: 0.15 }, hd: { mx: [1], mu: 900, sigma: 0.15 } } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatch(/sum to 0\.9, not 1/);
    expect((await report('csv', CASE_1, clerk)).statusCode).toBe(403);
  });
});
