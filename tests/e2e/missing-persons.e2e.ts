/**
 * Issue 16 "Done means", in Chromium against the real server: an administrator draws "mother + full sister" with a
 * stepwise mutation model in the analysis editor; an analyst builds a missing-person case with the two relatives'
 * profiles and activates the family from the case page; a remains profile is approved and the hit appears with its
 * LR and the marker needing a mutation named; the calculator gives the same number; the hit's PDF shows the
 * pedigree and the mutation model (rendered to PNG with pdftoppm).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Analysis, AnalysisResult } from '../../core/schemas/analyses';
import type { Family } from '../../core/schemas/families';
import type { HitSummary } from '../../core/schemas/hits';
import { launchChromium } from './browser';
import { E2E_SECOND_ADMIN } from './fixtures';
import { missingPersonFamily, referenceTable } from './missing-person-family';
import { apiFetch, apiUpload, approveProfile, chooseCalculatorProfile, importProfiles, signIn } from './session';

const baseUrl = inject('baseUrl');
const demoPassword = inject('demoPassword');
const FBI_2015 = readFileSync(path.resolve(import.meta.dirname, '../../../shared/data/frequencies/fbi2015.csv'), 'utf8');
const POPULATION = 'E2E Missing persons FBI 2015 Caucasian';
const ANALYSIS = 'Mother and full sister (stepwise, E2E)';
const CASE_NUMBER = 'E2E-MP-2026-0700';
const REMAINS_CASE = 'E2E-UHR-2026-0701';
const FAMILY = 'Family of the missing son';
const { mother, sister, missing } = missingPersonFamily(701);

type Listed<T> = { items: T[]; count: number };
const state = { orgId: '', groupId: '', analysisId: '', populationId: '', caseId: '', remainsCaseId: '', hitId: '', profiles: {} as Record<string, string> };
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
const main = (page: Page) => page.getByRole('main');

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

const approve = (id: string) => approveProfile(reviewer, id);

describe('missing persons: a family pedigree with a stepwise model, searched against the remains', () => {
  it('an administrator draws "mother + full sister" with a stepwise model in the analysis editor', async () => {
    const created = await apiFetch<{ id: string; version: number }>(admin, 'POST', '/api/populations', { name: POPULATION, kind: 'Autosomal', organizationIds: [state.orgId] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    state.populationId = created.body.id;
    const uploaded = await apiUpload(admin, `/api/populations/${state.populationId}/statistics`, { name: 'fbi2015.csv', text: FBI_2015 }, { version: String(created.body.version), population: 'Caucasian' });
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
    const groups = await apiFetch<Listed<{ id: string; name: string }>>(admin, 'GET', '/api/analysis-groups?pageSize=50');
    state.groupId = groups.body.items.find((g) => g.name === 'Missing persons')!.id;

    await admin.goto(`${baseUrl}/${state.orgId}/analysis-groups/${state.groupId}/analyses/new`);
    await main(admin).getByRole('textbox', { name: 'Name' }).fill(ANALYSIS);
    await main(admin).getByLabel(/^Kind/).selectOption('Pedigree');
    const pedigree = main(admin).getByRole('group', { name: 'Pedigree' });
    for (let i = 0; i < 4; i++) await pedigree.getByRole('button', { name: 'Add person' }).click();
    for (const [n, name] of [[1, 'Father'], [2, 'Mother'], [3, 'Missing person'], [4, 'Full sister']] as const) await main(admin).getByLabel(`Name of person ${n}`).fill(name);
    await main(admin).getByLabel('Sex of person 2').selectOption({ label: 'Female' });
    await main(admin).getByLabel('Sex of person 4').selectOption({ label: 'Female' });
    for (const n of [3, 4]) {
      await main(admin).getByLabel(`Father of person ${n}`).selectOption({ label: 'Father' });
      await main(admin).getByLabel(`Mother of person ${n}`).selectOption({ label: 'Mother' });
    }
    await main(admin).getByLabel('Person 2 typed (a role)').check();
    await main(admin).getByLabel('Person 4 typed (a role)').check();
    await main(admin).getByLabel('Person 3 is the tested person').check();
    await pedigree.getByText('Roles, in order: Missing person, Mother, Full sister').waitFor();
    await pedigree.getByRole('img', { name: /Missing person, child of Father and Mother/ }).waitFor();
    for (const [sex, rate] of [['Female', '0.001'], ['Male', '0.003']] as const) {
      await main(admin).getByLabel(`${sex} model`, { exact: true }).selectOption({ label: 'Stepwise' });
      await main(admin).getByLabel(new RegExp(`^${sex} mutation rate`)).fill(rate);
      await main(admin).getByLabel(new RegExp(`^${sex} microvariant rate`)).fill('0.00001');
      await main(admin).getByLabel(new RegExp(`^${sex} range`)).fill('0.1');
    }
    await main(admin).getByLabel(/^Threshold/).fill('1000');
    await main(admin).getByRole('button', { name: 'Save' }).click();
    await admin.waitForURL(new RegExp(`/analysis-groups/${state.groupId}(/analyses/[0-9a-f-]{36})?$`));

    const listed = await apiFetch<Listed<{ id: string; name: string }>>(admin, 'GET', `/api/analysis-groups/${state.groupId}/analyses?pageSize=50`);
    const row = listed.body.items.find((a) => a.name === ANALYSIS);
    expect(row, JSON.stringify(listed.body.items.map((a) => a.name))).toBeDefined();
    state.analysisId = row!.id;
    const analysis = (await apiFetch<Analysis>(admin, 'GET', `/api/analyses/${state.analysisId}`)).body;
    expect(analysis).toMatchObject({ kind: 'Pedigree', roles: ['Missing person', 'Mother', 'Full sister'], threshold: 1000 });
    expect(analysis.pedigree!.target).toBe('Missing person');
    expect(analysis.mutation).toMatchObject({ female: { model: 'stepwise', rate: 0.001, rate2: 0.00001, range: 0.1 }, male: { model: 'stepwise', rate: 0.003, rate2: 0.00001, range: 0.1 } });
  });

  it('an analyst builds the missing-person case with the two relatives and activates the family from the case page', async () => {
    const caseTypes = await apiFetch<Listed<{ id: string }>>(analyst, 'GET', '/api/case-types?pageSize=1');
    const made = async (caseNumber: string) => {
      const res = await apiFetch<{ id: string }>(analyst, 'POST', '/api/cases', { caseNumber, caseTypeId: caseTypes.body.items[0]!.id, organizationId: state.orgId, assignedUserIds: [] });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.id;
    };
    state.caseId = await made(CASE_NUMBER);
    state.remainsCaseId = await made(REMAINS_CASE);
    Object.assign(state.profiles, await importProfiles(analyst, state.caseId, { name: 'mother.csv', text: referenceTable({ 'MPF-MOTHER': mother }) }, 'Biological Mother'));
    Object.assign(state.profiles, await importProfiles(analyst, state.caseId, { name: 'sister.csv', text: referenceTable({ 'MPF-SISTER': sister }) }, 'Biological Sibling'));
    for (const name of ['MPF-MOTHER', 'MPF-SISTER']) await approve(state.profiles[name]!);

    await analyst.goto(`${baseUrl}/${state.orgId}/cases/${state.caseId}`);
    const families = main(analyst).getByRole('region', { name: 'Families' });
    await families.getByRole('button', { name: 'Add family' }).click();
    const form = main(analyst).getByRole('region', { name: 'Add a family' });
    await form.getByLabel(/^Name/).fill(FAMILY);
    await form.getByLabel(/^Family shape/).selectOption({ label: ANALYSIS });
    await form.getByLabel(/^Mother/).selectOption({ label: 'MPF-MOTHER (approved)' });
    await form.getByLabel(/^Full sister/).selectOption({ label: 'MPF-SISTER (approved)' });
    await form.getByRole('checkbox', { name: POPULATION }).check();
    await expect.poll(() => form.getByLabel(/^Threshold/).inputValue()).toBe('1000');
    await form.getByRole('button', { name: 'Add family' }).click();
    const card = families.getByRole('article', { name: FAMILY });
    await card.waitFor();
    await card.getByRole('button', { name: 'Activate' }).click();
    const dialog = analyst.getByRole('alertdialog', { name: 'Activate this family?' });
    await dialog.getByRole('button', { name: 'Activate' }).click();
    await card.getByText(/^Searched [\d,]+ remains profiles?; 0 new hits\./).waitFor({ timeout: 30_000 });
    const listed = await apiFetch<Family[]>(analyst, 'GET', `/api/cases/${state.caseId}/families`);
    expect(listed.body.map((f) => [f.name, f.status])).toEqual([[FAMILY, 'active']]);
  });

  it('a remains profile is approved: the family hit appears with its LR and the marker needing a mutation named', async () => {
    Object.assign(state.profiles, await importProfiles(analyst, state.remainsCaseId, { name: 'remains.csv', text: referenceTable({ 'MPF-REMAINS': missing }) }, 'Unidentified Human (Remains)'));
    await approve(state.profiles['MPF-REMAINS']!);
    let hit: HitSummary | undefined;
    await expect
      .poll(async () => {
        const pending = await apiFetch<Listed<HitSummary>>(reviewer, 'GET', `/api/organizations/${state.orgId}/pending-hits?pageSize=200&search=${encodeURIComponent(REMAINS_CASE)}`);
        hit = pending.body.items.find((h) => h.analysisName === ANALYSIS);
        return hit?.profiles.map((p) => `${p.role}: ${p.sampleName}`);
      }, { timeout: 60_000 })
      .toEqual(['Missing person: MPF-REMAINS', 'Mother: MPF-MOTHER', 'Full sister: MPF-SISTER']);
    state.hitId = hit!.id;
    expect(hit!.combinedIndex).toBeGreaterThan(1000);

    await reviewer.goto(`${baseUrl}/${state.orgId}/hits/${state.hitId}`);
    await reviewer.getByRole('heading', { level: 1, name: new RegExp(`^${ANALYSIS.replace(/[()]/g, '\\$&')}: `) }).waitFor();
    await main(reviewer).getByText(`Found by the search of the missing-person family ${FAMILY}`).waitFor();
    await main(reviewer).getByRole('status', { name: 'Markers needing a mutation' }).getByText('Markers needing a mutation: FGA').waitFor();
    await main(reviewer).getByText('female: stepwise, rate 0.001, rate2 0.00001, range 0.1; male: stepwise, rate 0.003, rate2 0.00001, range 0.1').first().waitFor();
    await main(reviewer).getByText(hit!.combinedIndex!.toExponential(2)).first().waitFor();
  });

  it('the calculator gives the same number for the three profiles', async () => {
    // Opened from the analyses, not a case: the remains are in another case than the relatives.
    await analyst.goto(`${baseUrl}/${state.orgId}/analyses/${state.groupId}/${state.analysisId}`);
    await analyst.getByRole('heading', { level: 1, name: ANALYSIS }).waitFor();
    for (const [role, sample, caseNumber] of [['Missing person', 'MPF-REMAINS', REMAINS_CASE], ['Mother', 'MPF-MOTHER', CASE_NUMBER], ['Full sister', 'MPF-SISTER', CASE_NUMBER]] as const) {
      await chooseCalculatorProfile(analyst, role, `${sample} (case ${caseNumber}, approved)`);
    }
    await analyst.getByRole('checkbox', { name: POPULATION }).check();
    await analyst.getByRole('button', { name: 'Run' }).click();
    const section = analyst.getByRole('region', { name: `Result over ${POPULATION}` });
    await section.waitFor({ timeout: 20_000 });
    const engine = await apiFetch<AnalysisResult>(analyst, 'POST', `/api/analyses/${state.analysisId}/analyze`, {
      profileIds: [state.profiles['MPF-REMAINS'], state.profiles['MPF-MOTHER'], state.profiles['MPF-SISTER']],
      populationIds: [state.populationId],
    });
    const lr = engine.body.populations[0]!.combinedIndex!;
    const hit = await apiFetch<{ hit: { figures: { populations: { populationId: string; combinedIndex: number }[] } } }>(reviewer, 'GET', `/api/hits/${state.hitId}`);
    const stored = hit.body.hit.figures.populations.find((p) => p.populationId === state.populationId)!.combinedIndex;
    expect(Math.abs(stored - lr) / lr).toBeLessThan(1e-12);
    const figures = section.locator('.calculator__figures');
    expect(await figures.locator('div', { hasText: 'Likelihood ratio (H1 / H2)' }).locator('dd').textContent()).toBe(lr.toExponential(2));
    await section.getByText('Markers needing a mutation: FGA').waitFor();
  });

  it('the hit PDF shows the pedigree and the mutation model', async () => {
    await reviewer.goto(`${baseUrl}/${state.orgId}/hits/${state.hitId}`);
    const download = reviewer.waitForEvent('download');
    await main(reviewer).getByRole('button', { name: 'Download PDF' }).first().click();
    const file = await download;
    const dir = mkdtempSync(path.join(tmpdir(), 'locus-mp-'));
    const pdf = path.join(dir, 'hit.pdf');
    writeFileSync(pdf, readFileSync((await file.path())!));
    const text = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' });
    for (const expected of ['Missing person', 'Mother', 'Full sister', 'Father', 'stepwise, rate 0.001', 'stepwise, rate 0.003', 'FGA', 'needs a mutation', FAMILY]) expect(text, expected).toContain(expected);
    execFileSync('pdftoppm', ['-png', '-r', '60', pdf, path.join(dir, 'page')]);
    expect(readFileSync(path.join(dir, 'page-1.png')).subarray(1, 4).toString()).toBe('PNG');
  });
});
