/**
 * Issue 17 "Done means", in Chromium against the real server: the 3-person ESX17 low-template mixture of
 * ../shared/data/formats/genemapper (three replicates, ESX17_evids_LTDNA.csv; references ESX17_refs.csv; the 77
 * references of databaseESX17.txt as the database) imported and approved, with frequencies uploaded from
 * frequencies-formats/ESX17_NorwayAMEL.csv; the contributing references rank above every non-contributor; the
 * calculator shows the LR and the estimated drop-out; the PDF states the hypotheses and parameters.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { AnalysisResult } from '../../core/schemas/analyses';
import type { MixtureSearchAnswer } from '../../core/schemas/mixtures';
import { launchChromium } from './browser';
import { E2E_SECOND_ADMIN } from './fixtures';
import { apiFetch, apiUpload, approveProfile, chooseCalculatorProfile, importProfiles, signIn } from './session';

const baseUrl = inject('baseUrl');
const demoPassword = inject('demoPassword');
const FORMATS = path.resolve(import.meta.dirname, '../../../shared/data/formats');
const file = (name: string) => ({ name: path.basename(name), text: readFileSync(path.join(FORMATS, name), 'utf8') });
const POPULATION = 'E2E Norway (ESX17)';
const KIT = 'PowerPlex ESX 17 (E2E)';
const CASE_NUMBER = 'E2E-MIX-2026-0900';
const ANALYSIS = 'Mixture, 3 contributors';
const ESX17 = ['Amelogenin', 'D3S1358', 'TH01', 'D21S11', 'D18S51', 'D10S1248', 'D1S1656', 'D2S1338', 'D16S539', 'D22S1045', 'vWA', 'D8S1179', 'FGA', 'D2S441', 'D12S391', 'D19S433', 'SE33'];

type Listed<T> = { items: T[]; count: number };
const state = { orgId: '', populationId: '', caseId: '', analysisId: '', groupId: '', profiles: {} as Record<string, string> };
let browser: Browser;
const contexts: BrowserContext[] = [];
let analyst: Page;
let reviewer: Page;
let admin: Page;

async function as(email: string, password: string) {
  const context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1440, height: 1000 } });
  contexts.push(context);
  return signIn(context, baseUrl, email, password);
}
const orgOf = (page: Page) => /^\/([0-9a-f-]{36})/.exec(new URL(page.url()).pathname)![1]!;

beforeAll(async () => {
  browser = await launchChromium();
  analyst = await as('analyst@demo.locus.local', demoPassword);
  await analyst.waitForURL(/\/[0-9a-f-]{36}(\/|$)/);
  state.orgId = orgOf(analyst);
  reviewer = await as('reviewer@demo.locus.local', demoPassword);
  admin = await as(E2E_SECOND_ADMIN.email, E2E_SECOND_ADMIN.password);
}, 120_000);
afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
});

describe('mixtures: the ESX17 low-template 3-person stain, weighed and searched', () => {
  it('the administrator adds the kit and uploads the Norwegian frequencies; the analyst imports the stain, the references and the database; the reviewer approves them', async () => {
    const markers = await apiFetch<Listed<{ id: string; name: string }>>(admin, 'GET', '/api/markers?pageSize=500');
    const id = new Map(markers.body.items.map((m) => [m.name, m.id]));
    const kit = await apiFetch(admin, 'POST', '/api/autosomal-chemistries', { name: KIT, markerIds: ESX17.map((m) => id.get(m)!) });
    expect(kit.status, JSON.stringify(kit.body)).toBe(201);
    const created = await apiFetch<{ id: string; version: number }>(admin, 'POST', '/api/populations', { name: POPULATION, kind: 'Autosomal', organizationIds: [state.orgId] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    state.populationId = created.body.id;
    const uploaded = await apiUpload(admin, `/api/populations/${state.populationId}/statistics`, file('frequencies-formats/ESX17_NorwayAMEL.csv'), { version: String(created.body.version) });
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);

    const caseTypes = await apiFetch<Listed<{ id: string }>>(analyst, 'GET', '/api/case-types?pageSize=10');
    const made = await apiFetch<{ id: string }>(analyst, 'POST', '/api/cases', { caseNumber: CASE_NUMBER, caseTypeId: caseTypes.body.items[0]!.id, organizationId: state.orgId, assignedUserIds: [] });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    state.caseId = made.body.id;
    // Arrestees: no other end-to-end file adds any, so the ranked list below is this database alone (the imports file adds 100,000 offenders).
    Object.assign(state.profiles, await importProfiles(analyst, state.caseId, file('genemapper/ESX17_refs.csv'), 'Arrestee'));
    Object.assign(state.profiles, await importProfiles(analyst, state.caseId, file('genemapper/databaseESX17.txt'), 'Arrestee'));
    Object.assign(state.profiles, await importProfiles(analyst, state.caseId, file('genemapper/ESX17_evids_LTDNA.csv'), 'Forensic Mixture'));
    expect(Object.keys(state.profiles)).toHaveLength(3 + 77 + 3);
    for (const profileId of Object.values(state.profiles)) await approveProfile(reviewer, profileId);
  }, 300_000);

  it('the three replicates searched against the database rank the contributing references above every non-contributor', async () => {
    const groups = await apiFetch<Listed<{ id: string; name: string }>>(analyst, 'GET', '/api/analysis-groups?pageSize=50');
    state.groupId = groups.body.items.find((g) => g.name === 'Mixtures')!.id;
    const analyses = await apiFetch<Listed<{ id: string; name: string }>>(analyst, 'GET', `/api/analysis-groups/${state.groupId}/analyses?pageSize=50`);
    state.analysisId = analyses.body.items.find((a) => a.name === ANALYSIS)!.id;
    const ranked = await apiFetch<MixtureSearchAnswer>(analyst, 'POST', '/api/mixture-search', {
      organizationId: state.orgId,
      analysisId: state.analysisId,
      replicates: ['stain80', 'stain51', 'stain68'].map((s) => ({ profileId: state.profiles[s] })),
      populationIds: [state.populationId],
      searchedSampleTypes: ['Arrestee'],
      limit: 100,
    });
    expect(ranked.status, JSON.stringify(ranked.body)).toBe(200);
    const listed = ranked.body.candidates.map((c) => c.sampleName);
    expect(listed.slice(0, 3).sort()).toEqual(['ref1', 'ref2', 'ref3']);
    expect(listed).toHaveLength(80);
    expect(ranked.body.candidates.every((c) => c.caseNumber === CASE_NUMBER)).toBe(true);
    expect(ranked.body).toMatchObject({ hp: 'the candidate and 2 unknowns', hd: '3 unknowns' });
  }, 120_000);

  it('the calculator shows the LR of ref1 with the three replicates and the estimated drop-out', async () => {
    await analyst.goto(`${baseUrl}/${state.orgId}/analyses/${state.groupId}/${state.analysisId}`);
    await analyst.getByRole('heading', { level: 1, name: ANALYSIS }).waitFor();
    await chooseCalculatorProfile(analyst, 'Evidence', `stain80 (case ${CASE_NUMBER}, approved)`);
    await chooseCalculatorProfile(analyst, 'Person of interest', `ref1 (case ${CASE_NUMBER}, approved)`);
    for (const [n, stain] of [[2, 'stain51'], [3, 'stain68']] as const) {
      await analyst.getByRole('button', { name: 'Add a replicate of the evidence' }).click();
      await chooseCalculatorProfile(analyst, `Evidence (replicate ${n})`, `${stain} (case ${CASE_NUMBER}, approved)`);
    }
    await analyst.getByRole('checkbox', { name: POPULATION }).check();
    await analyst.getByRole('button', { name: 'Run' }).click();
    const section = analyst.getByRole('region', { name: `Result over ${POPULATION}` });
    await section.waitFor({ timeout: 60_000 });
    const engine = await apiFetch<AnalysisResult>(analyst, 'POST', `/api/analyses/${state.analysisId}/analyze`, {
      profileIds: [state.profiles.stain80, state.profiles.ref1],
      populationIds: [state.populationId],
      mixture: { replicateProfileIds: [state.profiles.stain51, state.profiles.stain68], knownContributorIds: [] },
    });
    expect(engine.status, JSON.stringify(engine.body)).toBe(200);
    const mixture = engine.body.populations[0]!.mixture!;
    expect(mixture.log10!).toBeGreaterThan(6);
    await section.getByRole('group', { name: `Hypotheses over ${POPULATION}` }).getByText('the person of interest and 2 unknowns').waitFor();
    await section.getByRole('table', { name: 'Drop-out estimates' }).waitFor();
    const conservative = mixture.estimates.find((e) => e.hypothesis === 'Hd')!.conservative!;
    expect(mixture.parameters.dropoutHp).toEqual([conservative, conservative, conservative]);
    await section.getByText(conservative.toFixed(3)).first().waitFor();
    await analyst.screenshot({ path: path.join(mkdtempSync(path.join(tmpdir(), 'locus-mix-')), 'calculator.png'), fullPage: true });
  }, 120_000);

  it('the PDF states the hypotheses and every parameter', async () => {
    const section = analyst.getByRole('region', { name: `Result over ${POPULATION}` });
    await section.waitFor();
    const download = analyst.waitForEvent('download');
    await analyst.getByRole('button', { name: 'Download PDF' }).first().click();
    const saved = await download;
    const dir = mkdtempSync(path.join(tmpdir(), 'locus-mix-'));
    const pdf = path.join(dir, 'mixture.pdf');
    writeFileSync(pdf, readFileSync((await saved.path())!));
    const text = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' });
    for (const expected of ['Hp', 'Hd', 'the person of interest and 2 unknowns', '3 unknowns', 'Drop-in (c)', 'θ', 'Drop-out under Hp', 'Drop-out estimates', 'stain51', 'stain68', 'ref1', POPULATION]) expect(text, expected).toContain(expected);
    execFileSync('pdftoppm', ['-png', '-r', '60', pdf, path.join(dir, 'page')]);
    expect(readFileSync(path.join(dir, 'page-1.png')).subarray(1, 4).toString()).toBe('PNG');
  }, 120_000);
});
