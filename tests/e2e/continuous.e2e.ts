/**
 * Issue 31 "Done means", in Chromium against the real server, through the screens a laboratory uses: the
 * Norwegian ESX17 frequencies uploaded on the population screen; EuroForMix's low-template 3-person stain
 * (ESX17_evids_LTDNA.csv: stain80, stain51, stain68) imported with its peak heights and the ESX17 kit, the three
 * runs joined in the import preview as replicates of one profile; its references imported and approved by a second
 * user. The calculator's number-of-contributors search fits 1..4 contributors (the plainest model) and its 3-person
 * model is chosen. The Continuous mixture calculator fits Hp (ref1 + ref2 + 1 unknown) and Hd (ref2 + 2 unknowns) as
 * bench/continuous-bench.ts does and shows the LR, both log-likelihoods, the deconvolution, the PP-plot and the EPG
 * chart; its PDF is rendered and read. Approving the stain ranks its contributors above every non-contributor of a
 * database of synthetic ESX17 references (E2E_CONTINUOUS_DATABASE of them, drawn from the same frequencies).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import type { HitSummary } from '../../core/schemas/hits';
import type { MixtureSearchAnswer } from '../../core/schemas/mixtures';
import type { Profile, ProfileWithMarkers } from '../../core/schemas/profiles';
import { launchChromium } from './browser';
import { E2E_SECOND_ADMIN } from './fixtures';
import { apiFetch, chooseCalculatorProfile, importProfiles, signIn } from './session';
import { syntheticReferences } from './synthetic-references';

const baseUrl = inject('baseUrl');
const demoPassword = inject('demoPassword');
const DATA = path.resolve(import.meta.dirname, '../../../shared/data/formats');
const FREQUENCIES = path.join(DATA, 'frequencies-formats/ESX17_NorwayAMEL.csv');
const STAINS = path.join(DATA, 'genemapper/ESX17_evids_LTDNA.csv');
const REFS = path.join(DATA, 'genemapper/ESX17_refs.csv');
const DATABASE = Number(process.env.E2E_CONTINUOUS_DATABASE ?? 200);
const POPULATION = 'E2E Norway ESX17 (continuous)';
const KIT = 'PowerPlex ESX 17';
const CASE_NUMBER = 'E2E-CONT-2026-3100';
const DATABASE_CASE = 'E2E-CONT-2026-3101';
const ANALYSIS = 'Continuous mixture';
const CONTRIBUTORS = ['ref1', 'ref2', 'ref3'];
const OUT = '/tmp/locus-continuous-e2e';

type Listed<T> = { items: T[]; count: number };
const state = { orgId: '', orgName: '', populationId: '', caseId: '', databaseCaseId: '', groupId: '', analysisId: '', stainId: '', refs: {} as Record<string, string> };
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
const main = (page: Page) => page.getByRole('main');

/** A case of the analyst's organization, made on the API (the case screens are not under test here). */
async function newCase(caseNumber: string): Promise<string> {
  const caseTypes = await apiFetch<Listed<{ id: string }>>(analyst, 'GET', '/api/case-types?pageSize=1');
  const made = await apiFetch<{ id: string }>(analyst, 'POST', '/api/cases', { caseNumber, caseTypeId: caseTypes.body.items[0]!.id, organizationId: state.orgId, assignedUserIds: [] });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return made.body.id;
}

/** The import screen: a file chosen, the kit and sample type set; resolves when the preview can be confirmed. */
async function importOnScreen(file: string, sampleType: string) {
  await analyst.goto(`${baseUrl}/${state.orgId}/cases/${state.caseId}/profiles/autosomal/upload`);
  await analyst.getByLabel('Profile file').setInputFiles(file);
  await analyst.getByRole('button', { name: /^Confirm and add/ }).waitFor({ timeout: 30_000 });
  await analyst.getByRole('combobox', { name: /^Chemistry/ }).selectOption({ label: KIT });
  await analyst.getByRole('combobox', { name: /^Sample Type/ }).selectOption(sampleType);
}

async function confirmImport(expected: number) {
  await analyst.getByRole('button', { name: `Confirm and add ${expected} profile${expected === 1 ? '' : 's'}` }).click();
  await analyst.getByText(new RegExp(`Added ${expected} profiles? from`)).waitFor({ timeout: 30_000 });
}

async function caseProfiles(caseId: string): Promise<Profile[]> {
  const listed = await apiFetch<Listed<Profile>>(analyst, 'GET', `/api/cases/${caseId}/profiles?pageSize=200`);
  return listed.body.items;
}

/** The reviewer approves pending profiles 200 at a time (the bulk review's limit), with their stored values. */
async function bulkApprove(profiles: readonly Pick<Profile, 'id' | 'version'>[]) {
  for (let i = 0; i < profiles.length; i += 200) {
    const items = profiles.slice(i, i + 200).map((p) => ({ id: p.id, version: p.version }));
    const done = await apiFetch<{ results: { outcome: string; message: string }[] }>(reviewer, 'POST', '/api/profiles/bulk-review', { action: 'approve', items, comments: 'Checked against the electropherogram' });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.results.filter((o) => o.outcome !== 'done')).toEqual([]);
  }
}

/** A picture of the page at a width, to look at (the report names what is wrong in it). */
async function screenshotAt(page: Page, width: number, name: string) {
  await page.setViewportSize({ width, height: 1000 });
  await page.screenshot({ path: path.join(OUT, name), fullPage: true });
}

beforeAll(async () => {
  mkdirSync(OUT, { recursive: true });
  browser = await launchChromium();
  analyst = await as('analyst@demo.locus.local', demoPassword);
  await analyst.waitForURL(/\/[0-9a-f-]{36}(\/|$)/);
  state.orgId = /^\/([0-9a-f-]{36})/.exec(new URL(analyst.url()).pathname)![1]!;
  reviewer = await as('reviewer@demo.locus.local', demoPassword);
  admin = await as(E2E_SECOND_ADMIN.email, E2E_SECOND_ADMIN.password);
  state.orgName = (await apiFetch<{ name: string }>(admin, 'GET', `/api/organizations/${state.orgId}`)).body.name;
}, 120_000);
// A failed step leaves each user's screen as it was, to look at.
afterEach(async ({ task }) => {
  if (task.result?.state !== 'fail') return;
  for (const [who, page] of Object.entries({ analyst, reviewer, admin })) await page?.screenshot({ path: path.join(OUT, `failed-${who}.png`), fullPage: true }).catch(() => undefined);
});
afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
});

describe('continuous model: the ESX17 low-template 3-person stain with its peak heights', () => {
  it('the administrator creates the Norwegian ESX17 population on the population screen and uploads its frequencies', async () => {
    await admin.goto(`${baseUrl}/all/populations/new/edit`);
    await admin.getByLabel('Name').fill(POPULATION);
    await admin.getByLabel(state.orgName, { exact: true }).check();
    await admin.getByRole('button', { name: 'Save' }).click();
    await admin.waitForURL(/\/populations\/[0-9a-f-]{36}\/upload$/);
    state.populationId = /\/populations\/([0-9a-f-]{36})\/upload$/.exec(new URL(admin.url()).pathname)![1]!;
    await admin.getByLabel('Statistics file').setInputFiles(FREQUENCIES);
    const save = admin.getByRole('button', { name: 'Save statistics' });
    await expect.poll(() => save.isEnabled(), { timeout: 20_000 }).toBe(true);
    await save.click();
    await admin.waitForURL(/\/populations\/[0-9a-f-]{36}\/edit/);
    await main(admin).getByText(/Statistics saved from ESX17_NorwayAMEL\.csv/).waitFor({ timeout: 20_000 });
  });

  it('the analyst imports the three stains as replicates of one profile with their heights and the ESX17 kit, and the references', async () => {
    state.caseId = await newCase(CASE_NUMBER);
    await importOnScreen(STAINS, 'Forensic Mixture');
    const preview = analyst.getByRole('region', { name: 'Profiles of the file' });
    for (const run of ['stain51', 'stain68']) await preview.getByLabel(`${run} is a replicate of`).selectOption({ label: 'stain80' });
    // The file lists stain80, stain68, stain51: the first keeps its name.
    await preview.getByText('Added as one profile named stain80, with the runs of stain68, stain51 as its replicates.').waitFor();
    await confirmImport(1);

    await importOnScreen(REFS, 'Convicted Offender');
    await confirmImport(3);

    const profiles = await caseProfiles(state.caseId);
    expect(profiles.map((p) => p.profileId).sort()).toEqual(['ref1', 'ref2', 'ref3', 'stain80']);
    const stain = profiles.find((p) => p.profileId === 'stain80')!;
    state.stainId = stain.id;
    const full = (await apiFetch<ProfileWithMarkers>(analyst, 'GET', `/api/profiles/${stain.id}`)).body;
    expect(full.chemistryName).toBe(KIT);
    expect(full.replicates.map((r) => r.name)).toEqual(['stain80', 'stain68', 'stain51']);
    // stain80's D3S1358 as the file gives it: 15, 16, 17 at 190, 432, 132 RFU.
    const d3 = full.replicates[0]!.markers.find((m) => m.marker === 'D3S1358')!;
    expect(d3.peaks.map((p) => [p.allele, p.height])).toEqual([['15', 190], ['16', 432], ['17', 132]]);

    // The profile view shows the runs with their heights.
    await analyst.goto(`${baseUrl}/${state.orgId}/cases/${state.caseId}/profiles/${stain.id}`);
    await main(analyst).getByText('stain51').first().waitFor();
    await main(analyst).getByText('432').first().waitFor();

    // The references are reviewed by a second user (four-eyes); the stain stays pending until the calculator has weighed it.
    state.refs = Object.fromEntries(profiles.filter((p) => p.profileId.startsWith('ref')).map((p) => [p.profileId, p.id]));
    await bulkApprove(profiles.filter((p) => p.profileId.startsWith('ref')));
  });

  it(`a database of ${DATABASE.toLocaleString('en')} synthetic ESX17 references (Norwegian frequencies, seed 31) is added and approved`, async () => {
    state.databaseCaseId = await newCase(DATABASE_CASE);
    const t0 = Date.now();
    const ids = await importProfiles(analyst, state.databaseCaseId, { name: 'database.csv', text: syntheticReferences(FREQUENCIES, DATABASE, 31, 'NOR-') }, 'Convicted Offender');
    expect(Object.keys(ids)).toHaveLength(DATABASE);
    const pending: Profile[] = [];
    for (let page = 0; pending.length < DATABASE; page++) {
      const listed = await apiFetch<Listed<Profile>>(analyst, 'GET', `/api/cases/${state.databaseCaseId}/profiles?pageSize=200&page=${page}`);
      expect(listed.body.items.length).toBeGreaterThan(0);
      pending.push(...listed.body.items);
    }
    const t1 = Date.now();
    await bulkApprove(pending);
    console.log(`database of ${DATABASE}: imported in ${t1 - t0} ms, approved in ${Date.now() - t1} ms`);
  }, 600_000);

  it('the number-of-contributors search on the calculator fits 1..4 contributors with progress, and the 3-person model is chosen', async () => {
    const groups = await apiFetch<Listed<{ id: string; name: string }>>(analyst, 'GET', '/api/analysis-groups?pageSize=50');
    state.groupId = groups.body.items.find((g) => g.name === 'Mixtures')!.id;
    const analyses = await apiFetch<Listed<{ id: string; name: string }>>(analyst, 'GET', `/api/analysis-groups/${state.groupId}/analyses?pageSize=50`);
    state.analysisId = analyses.body.items.find((a) => a.name === ANALYSIS)!.id;
    await analyst.goto(`${baseUrl}/${state.orgId}/analyses/${state.groupId}/${state.analysisId}`);
    await analyst.getByRole('heading', { level: 1, name: ANALYSIS }).waitFor();

    await chooseCalculatorProfile(analyst, 'Evidence', `stain80 (case ${CASE_NUMBER}, pending)`);
    const replicates = analyst.getByRole('group', { name: 'Replicates of stain80' });
    for (const run of ['stain80', 'stain51', 'stain68']) {
      const box = replicates.getByRole('checkbox', { name: new RegExp(`^${run}: \\d+ peaks with heights at 1[46] markers`) });
      await box.waitFor();
      expect(await box.isChecked()).toBe(true);
    }
    await chooseCalculatorProfile(analyst, 'Person of interest', `ref1 (case ${CASE_NUMBER}, approved)`);
    await analyst.getByRole('button', { name: 'Add a known contributor' }).click();
    await chooseCalculatorProfile(analyst, 'Known contributor 1', `ref2 (case ${CASE_NUMBER}, approved)`);
    await analyst.getByRole('radio', { name: POPULATION }).check();

    // The model search with the calculator's choices, the plainest model only (no degradation, no stutter): four fits.
    const search = analyst.getByRole('region', { name: 'Number of contributors' });
    await search.getByRole('combobox', { name: 'To (contributors)' }).selectOption('4');
    await search.getByRole('button', { name: 'Find the number of contributors' }).click();
    // Progress per model while it runs, then done.
    await search.getByRole('status').filter({ hasText: /^Fitting: \d of \d models fitted/ }).waitFor({ timeout: 30_000 });
    await search.getByRole('status').filter({ hasText: /^Done in [\d.]+ s: (\d) of \1 models fitted/ }).waitFor({ timeout: 240_000 });
    const compared = search.getByRole('table', { name: 'Models compared' });
    for (const n of [1, 2, 3, 4]) await compared.getByRole('row', { name: new RegExp(`^${n} contributors?, no degradation, no stutter$`) }).waitFor();
    // Hp holds ref1 and ref2: one contributor cannot explain it, and is said so.
    await expect.poll(() => compared.getByRole('row', { name: /^1 contributor,/ }).textContent()).toMatch(/Not fitted/);
    expect(await compared.locator('.contributor-search__best').count()).toBe(1);
    await compared.getByRole('button', { name: 'Use this model: 3 contributors, no degradation, no stutter' }).click();
    expect(await analyst.getByRole('combobox', { name: 'Number of contributors', exact: true }).inputValue()).toBe('3');
  }, 300_000);

  it('the Continuous mixture calculator fits both hypotheses and shows the LR, the log-likelihoods, the deconvolution, the PP-plot and the EPG chart', async () => {
    for (const part of [/^Degradation/, /^Backward stutter/, /^Forward stutter/]) await analyst.getByRole('checkbox', { name: part }).check();
    await screenshotAt(analyst, 600, 'calculator-choices-600.png');
    await analyst.setViewportSize({ width: 1440, height: 1000 });
    await analyst.getByRole('button', { name: 'Run' }).click();

    const result = analyst.getByRole('region', { name: 'Continuous result' });
    await result.waitFor({ timeout: 90_000 });
    const figures = result.locator('dl.calculator__figures');
    const log10 = Number(await figures.locator('dt', { hasText: /^log10 LR$/ }).locator('xpath=following-sibling::dd[1]').textContent());
    // ref1 is a contributor of stain80 (EuroForMix's example): heights weigh him far above chance.
    expect(log10).toBeGreaterThan(6);
    const hypotheses = result.getByRole('table', { name: 'Hypotheses' });
    for (const h of ['Hp', 'Hd']) {
      const lnL = await hypotheses.getByRole('row', { name: new RegExp(`^${h}:`) }).getByRole('cell').nth(1).textContent();
      expect(Number(lnL), `${h} ln L`).toBeLessThan(0);
      expect(lnL).toMatch(/^-\d+\.\d{6}$/);
    }
    await hypotheses.getByText(/of \d starts agree on the maximum \(seed 1\); converged/).first().waitFor();
    await result.getByRole('table', { name: 'Parameters fitted by maximum likelihood' }).getByRole('row', { name: /^Degradation slope β/ }).waitFor();
    await result.getByText('double precision', { exact: false }).first().waitFor();
    const deconvolution = result.getByRole('table', { name: /^Deconvolution under Hd/ });
    expect(await deconvolution.getByRole('row').count()).toBeGreaterThan(16);
    await result.getByRole('table', { name: /^Deconvolution under Hp/ }).waitFor();

    const pp = result.getByRole('img', { name: /^PP-plot under Hp: \d+ peak heights/ });
    expect(await pp.locator('circle.pp-plot__point').count()).toBeGreaterThan(30);
    const epg = result.locator('figure.epg-chart').getByRole('img', { name: /observed and expected peak heights/ });
    expect(await epg.count()).toBe(16);
    expect(await result.locator('figure.epg-chart rect.epg-chart__observed').count()).toBeGreaterThan(30);
    // The reader switches the validation to Hd: the charts follow.
    await result.getByRole('radio', { name: 'Hd' }).check();
    await result.getByRole('img', { name: /^PP-plot under Hd/ }).waitFor();

    await screenshotAt(analyst, 1440, 'calculator-result-1440.png');
    await screenshotAt(analyst, 600, 'calculator-result-600.png');
    await analyst.setViewportSize({ width: 1440, height: 1000 });
  }, 180_000);

  it('the PDF from the screen gives the LR, every parameter and the double-precision statement', async () => {
    const result = analyst.getByRole('region', { name: 'Continuous result' });
    const shownLog10 = await result.locator('dl.calculator__figures dt', { hasText: /^log10 LR$/ }).locator('xpath=following-sibling::dd[1]').textContent();
    // The server weighs the request again (the full fit) before it writes the PDF.
    const download = analyst.waitForEvent('download', { timeout: 150_000 });
    await analyst.getByRole('button', { name: 'Download PDF' }).click();
    const saved = await download;
    const pdf = path.join(OUT, 'continuous.pdf');
    writeFileSync(pdf, readFileSync((await saved.path())!));
    expect(readFileSync(pdf).subarray(0, 5).toString()).toBe('%PDF-');
    const text = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' });
    const flat = text.replace(/\s+/g, ' ');
    for (const expected of ['Hp', 'Hd', 'ref1', 'ref2', POPULATION, 'μ', 'σ', 'β', 'ξB', 'ξF', 'θ', 'Drop-in', 'double precision', 'Deconvolution', shownLog10!.trim()]) {
      expect(flat, expected).toContain(expected);
    }
    execFileSync('pdftoppm', ['-png', '-r', '50', pdf, path.join(OUT, 'continuous-page')]);
    expect(readFileSync(path.join(OUT, 'continuous-page-1.png')).subarray(1, 4).toString()).toBe('PNG');
  }, 200_000);

  it('approving the stain ranks its contributors above every non-contributor of the database on the hits screen', async () => {
    const stain = (await apiFetch<ProfileWithMarkers>(reviewer, 'GET', `/api/profiles/${state.stainId}`)).body;
    const approved = await apiFetch(reviewer, 'POST', `/api/profiles/${state.stainId}/approve`, {
      version: stain.version,
      comments: 'Checked against the electropherogram',
      markerValues: stain.markerValues.map((v) => ({ markerId: v.markerId, alleles: v.alleles })),
    });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);

    // The searches run in the background: wait until every one is done (about 30 s on a quiet 2-core machine: the Hd
    // fit, the pass, then a full fit of each hit with its candidate under Hp; over 120 s once beside other test runs).
    await expect.poll(async () => (await apiFetch<Listed<{ status: string }>>(reviewer, 'GET', `/api/organizations/${state.orgId}/searches`)).body.items.every((j) => j.status === 'done'), { timeout: 240_000 }).toBe(true);
    const hits = (await apiFetch<Listed<HitSummary>>(reviewer, 'GET', `/api/organizations/${state.orgId}/pending-hits?pageSize=200&search=${encodeURIComponent(CASE_NUMBER)}`)).body.items.filter(
      (h) => h.analysisName.startsWith('Mixture') && h.profiles.some((p) => p.sampleName === 'stain80' && p.caseNumber === CASE_NUMBER),
    );
    const candidates = hits.map((h) => h.profiles.find((p) => p.sampleName !== 'stain80')!.sampleName);
    expect(candidates.filter((c) => CONTRIBUTORS.includes(c)).length, `hits of stain80: ${candidates.join(', ')}`).toBeGreaterThan(0);

    // The hits screen lists the strongest first: every contributor's hit before any other's.
    await reviewer.goto(`${baseUrl}/${state.orgId}/hits`);
    const rows = main(reviewer).getByRole('row').filter({ hasText: `stain80 (${CASE_NUMBER})` });
    await rows.first().waitFor({ timeout: 20_000 });
    const shown = (await rows.allTextContents()).map((t) => /\b(ref\d|NOR-\d+)\b/.exec(t)?.[1] ?? t);
    const lastContributor = Math.max(...shown.map((s, i) => (CONTRIBUTORS.includes(s) ? i : -1)));
    const firstOther = shown.findIndex((s) => !CONTRIBUTORS.includes(s));
    expect(firstOther === -1 || firstOther > lastContributor, `hits screen order: ${shown.join(', ')}`).toBe(true);

    // The whole ranking, below the threshold too: the continuous search over the same database.
    const analyses = await apiFetch<Listed<{ id: string; name: string }>>(analyst, 'GET', `/api/analysis-groups/${state.groupId}/analyses?pageSize=50`);
    const ranked = await apiFetch<MixtureSearchAnswer>(analyst, 'POST', '/api/mixture-search', {
      organizationId: state.orgId,
      analysisId: analyses.body.items.find((a) => a.name === 'Mixture, 3 contributors')!.id,
      replicates: [{ profileId: state.stainId }],
      populationIds: [state.populationId],
      searchedSampleTypes: ['Convicted Offender'],
      model: 'continuous',
      // Each listed candidate is fitted again under Hp: the first five show the order.
      limit: 5,
    });
    expect(ranked.status, JSON.stringify(ranked.body)).toBe(200);
    const order = ranked.body.candidates.filter((c) => c.caseNumber === CASE_NUMBER || c.caseNumber === DATABASE_CASE).map((c) => c.sampleName);
    expect(order.slice(0, 3).sort(), `ranking: ${order.slice(0, 10).join(', ')}`).toEqual(CONTRIBUTORS);

    // HitView of ref1's hit: both numbers, both fits' ln L, the parameters; nothing there or in Populations scrolls sideways at 600 px.
    const ref1Hit = hits.find((h) => h.profiles.some((p) => p.sampleName === 'ref1'))!;
    await reviewer.goto(`${baseUrl}/${state.orgId}/hits/${ref1Hit.id}`);
    const continuous = main(reviewer).getByRole('region', { name: `Continuous model over ${POPULATION}` });
    const fits = continuous.getByRole('table', { name: `Hypotheses over ${POPULATION}` });
    for (const h of ['Hp', 'Hd']) expect(await fits.getByRole('row', { name: new RegExp(`^${h}\\b`) }).getByRole('cell').nth(1).textContent()).toMatch(/^-\d+\.\d{6}$/);
    await continuous.getByRole('table', { name: /^Parameters fitted by maximum likelihood over/ }).waitFor();
    for (const width of [600, 1440]) {
      await screenshotAt(reviewer, width, `hit-view-${width}.png`);
      for (const section of [continuous, main(reviewer).getByRole('region', { name: 'Populations' })]) {
        const sideways = await section.evaluate((el) => [el, ...el.querySelectorAll('table, .calculator__scroll')].filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.className));
        expect(sideways, `${width} px`).toEqual([]);
      }
    }
    await reviewer.setViewportSize({ width: 1440, height: 1000 });
  }, 420_000);
});
