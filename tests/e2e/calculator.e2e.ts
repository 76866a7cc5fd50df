/**
 * Issue 5 end to end, in Chromium against the real server: an administrator uploads the real FBI
 * 2015 frequencies as a population shared with the analyst's organization; the analyst imports a
 * real GeneMapper reference table into a case, opens the calculator from the case, runs Full
 * siblings on two of its profiles, and every number on screen equals the engine's answer to the
 * same request; the result downloads as a PDF.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { AnalysisResult } from '../../core/schemas/analyses';
import { launchChromium } from './browser';
import { E2E_SECOND_ADMIN } from './fixtures';
import { apiFetch, apiUpload, importProfiles, signIn } from './session';

const baseUrl = inject('baseUrl');
const demoPassword = inject('demoPassword');
const SHARED = path.resolve(import.meta.dirname, '../../../shared/data');
const FBI_2015 = readFileSync(path.join(SHARED, 'frequencies/fbi2015.csv'), 'utf8');
const GF_REFS = readFileSync(path.join(SHARED, 'formats/genemapper/GF_refs.csv'), 'utf8');
const POPULATION = 'E2E FBI 2015 Caucasian';
const CASE_NUMBER = 'E2E-2026-0500';

type Listed<T> = { items: T[]; count: number };
const state = { orgId: '', caseId: '', populationId: '', analysisId: '', profiles: {} as Record<string, string> };

let browser: Browser;
let analystContext: BrowserContext;
let analyst: Page;

beforeAll(async () => {
  browser = await launchChromium();
  analystContext = await browser.newContext({ acceptDownloads: true });
  analyst = await signIn(analystContext, baseUrl, 'analyst@demo.locus.local', demoPassword);
  await analyst.waitForURL(/\/[0-9a-f-]{36}(\/|$)/);
  state.orgId = /^\/([0-9a-f-]{36})/.exec(new URL(analyst.url()).pathname)![1]!;
}, 60_000);
afterAll(async () => {
  await analystContext?.close();
  await browser?.close();
});

const main = (page: Page) => page.getByRole('main');

describe('the analysis calculator', () => {
  it('an administrator uploads the FBI 2015 Caucasian frequencies as a population of the analyst’s organization', async () => {
    const context = await browser.newContext();
    const admin = await signIn(context, baseUrl, E2E_SECOND_ADMIN.email, E2E_SECOND_ADMIN.password);
    const created = await apiFetch<{ id: string; version: number }>(admin, 'POST', '/api/populations', { name: POPULATION, kind: 'Autosomal', organizationIds: [state.orgId] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    state.populationId = created.body.id;
    const uploaded = await apiUpload(admin, `/api/populations/${state.populationId}/statistics`, { name: 'fbi2015.csv', text: FBI_2015 }, { version: String(created.body.version), population: 'Caucasian' });
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
    await context.close();
  });

  it('the analyst imports the GlobalFiler references into a new case', async () => {
    const caseTypes = await apiFetch<Listed<{ id: string }>>(analyst, 'GET', '/api/case-types?pageSize=1');
    const created = await apiFetch<{ id: string }>(analyst, 'POST', '/api/cases', { caseNumber: CASE_NUMBER, caseTypeId: caseTypes.body.items[0]!.id, organizationId: state.orgId, assignedUserIds: [] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    state.caseId = created.body.id;
    state.profiles = await importProfiles(analyst, state.caseId, { name: 'GF_refs.csv', text: GF_REFS });
    expect(Object.keys(state.profiles).sort()).toEqual(['K29', 'K48', 'K49', 'K50']);
  });

  it('opens Full siblings from the case and shows the engine’s numbers for K48 and K49 over the uploaded population', async () => {
    await analyst.goto(`${baseUrl}/${state.orgId}/cases/${state.caseId}`);
    await analyst.getByRole('navigation', { name: 'Run an analysis on this case' }).getByRole('link', { name: 'Kinship' }).click();
    await main(analyst).getByText('Full siblings', { exact: true }).click();
    await analyst.waitForURL(new RegExp(`/analyses/[0-9a-f-]{36}/([0-9a-f-]{36})\\?caseId=${state.caseId}$`));
    state.analysisId = /\/analyses\/[0-9a-f-]{36}\/([0-9a-f-]{36})/.exec(new URL(analyst.url()).pathname)![1]!;
    await analyst.getByRole('heading', { level: 1, name: 'Full siblings' }).waitFor();

    for (const [role, sample] of [['Person 1', 'K48'], ['Person 2', 'K49']] as const) {
      await analyst.getByLabel(`Find a profile for ${role}`).fill(sample);
      const select = analyst.getByRole('combobox', { name: role, exact: true });
      const option = `${sample} (case ${CASE_NUMBER}, pending)`;
      await expect.poll(() => select.locator('option').allTextContents(), { timeout: 10_000 }).toContain(option);
      await select.selectOption({ label: option });
    }
    await analyst.getByRole('checkbox', { name: POPULATION }).check();
    await analyst.getByRole('button', { name: 'Run' }).click();

    const section = analyst.getByRole('region', { name: `Result over ${POPULATION}` });
    await section.waitFor({ timeout: 20_000 });
    const engine = await apiFetch<AnalysisResult>(analyst, 'POST', `/api/analyses/${state.analysisId}/analyze`, {
      profileIds: [state.profiles.K48, state.profiles.K49],
      populationIds: [state.populationId],
    });
    expect(engine.status).toBe(200);
    const population = engine.body.populations[0]!;
    expect(population.combinedIndex).toBeGreaterThan(0);
    const figures = section.locator('.calculator__figures');
    expect(await figures.locator('div', { hasText: 'Combined index' }).locator('dd').textContent()).toBe(population.combinedIndex!.toExponential(2));
    expect(await figures.locator('div', { hasText: 'Probability' }).locator('dd').textContent()).toBe(population.probability);

    const rows = section.getByRole('table', { name: `Markers over ${POPULATION}` }).locator('tbody tr');
    expect(await rows.count()).toBe(population.markers.length);
    for (const [i, marker] of population.markers.entries()) {
      const cells = rows.nth(i).locator('th, td');
      expect(await cells.nth(0).textContent()).toBe(marker.marker);
      expect(await cells.nth(3).textContent()).toBe(marker.pattern ?? '–');
      expect(await cells.nth(5).textContent()).toBe(marker.value === null ? `not evaluated: ${marker.notEvaluated}` : marker.value.toExponential(2));
    }
    await expect.poll(() => section.locator('.log10-chart svg, .log10-chart .recharts-wrapper').count()).toBeGreaterThan(0);
  });

  it('downloads the result as a PDF', async () => {
    const download = analyst.waitForEvent('download');
    await analyst.getByRole('button', { name: 'Download PDF' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('Full_siblings_K48_K49.pdf');
    const saved = readFileSync((await file.path())!);
    expect(saved.subarray(0, 5).toString()).toBe('%PDF-');
  });
});
