/**
 * Issue 30, "What a new user met", end to end in Chromium against the real server: a new laboratory with no
 * population of its own finds an identity hit, which says that nothing weighed it and points to Populations;
 * once frequencies are uploaded the reviewer weighs it again from the hit's page.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { HitSummary } from '../../core/schemas/hits';
import { axeViolations } from './axe';
import { launchChromium } from './browser';
import { E2E_SECOND_ADMIN } from './fixtures';
import { apiFetch, apiUpload, approveProfile, importProfiles, signIn } from './session';

const baseUrl = inject('baseUrl');
const SHARED = path.resolve(import.meta.dirname, '../../../shared/data');
const FBI_2015 = readFileSync(path.join(SHARED, 'frequencies/fbi2015.csv'), 'utf8');
const NOT_WEIGHED = /(\d+) of \1 markers match; not weighed: no population of this organization is used by the rule/;

type Listed<T> = { items: T[]; count: number };

/** GF_refs.csv's K48 as one sample named `name` (SampleName,Marker,Allele1,Allele2). */
function k48As(name: string): string {
  const rows = readFileSync(path.join(SHARED, 'formats/genemapper/GF_refs.csv'), 'utf8').trim().split(/\r?\n/);
  return [rows[0], ...rows.slice(1).filter((r) => r.startsWith('K48,')).map((r) => r.replace(/^K48,/, `${name},`))].join('\n');
}

let browser: Browser;
let context: BrowserContext;
let admin: Page;
const state = { orgId: '', caseId: '' };
const main = () => admin.getByRole('main');

beforeAll(async () => {
  browser = await launchChromium();
  context = await browser.newContext();
  admin = await signIn(context, baseUrl, E2E_SECOND_ADMIN.email, E2E_SECOND_ADMIN.password);
  // A new laboratory: no population is shared with it; review with four eyes off, so its one administrator approves.
  const org = await apiFetch<{ id: string }>(admin, 'POST', '/api/organizations', { name: 'E2E New Laboratory' });
  expect(org.status, JSON.stringify(org.body)).toBe(201);
  state.orgId = org.body.id;
  const settings = await apiFetch<{ version: number }>(admin, 'GET', `/api/organizations/${state.orgId}/review-settings`);
  expect((await apiFetch(admin, 'PUT', `/api/organizations/${state.orgId}/review-settings`, { fourEyesReview: false, version: settings.body.version })).status).toBe(200);
  const caseTypes = await apiFetch<Listed<{ id: string }>>(admin, 'GET', '/api/case-types?pageSize=1');
  const made = await apiFetch<{ id: string }>(admin, 'POST', '/api/cases', { caseNumber: 'E2E-NEW-0001', caseTypeId: caseTypes.body.items[0]!.id, organizationId: state.orgId, assignedUserIds: [] });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  state.caseId = made.body.id;
}, 120_000);
afterAll(async () => {
  await context?.close();
  await browser?.close();
});

describe('an identity hit no population weighed', () => {
  it('says how many markers match and that nothing weighed them, on the Review list and the hit, and points to Populations', async () => {
    const stain = await importProfiles(admin, state.caseId, { name: 'stain.csv', text: k48As('NEW-STAIN') }, 'Forensic, Unknown');
    const offender = await importProfiles(admin, state.caseId, { name: 'offender.csv', text: k48As('NEW-OFFENDER') }, 'Convicted Offender');
    for (const id of [...Object.values(stain), ...Object.values(offender)]) await approveProfile(admin, id);
    await expect
      .poll(async () => (await apiFetch<Listed<HitSummary>>(admin, 'GET', `/api/organizations/${state.orgId}/pending-hits`)).body.items.length, { timeout: 60_000 })
      .toBe(1);

    await admin.goto(`${baseUrl}/${state.orgId}/hits`);
    const row = main().getByRole('row').filter({ hasText: 'NEW-STAIN' });
    await row.first().waitFor({ timeout: 20_000 });
    expect(await row.first().textContent()).toMatch(NOT_WEIGHED);
    expect(await row.first().textContent()).not.toMatch(/\b0\/\d+/);

    await row.first().getByText('Identity', { exact: true }).click();
    await admin.waitForURL(/\/hits\/[0-9a-f-]{36}$/);
    await main().getByText('Weigh again with the current populations').waitFor();
    const figures = await main().locator('.hit-figures').textContent();
    expect(figures).toMatch(NOT_WEIGHED);
    expect(figures).not.toContain('None (exclusion analysis)');
    expect(await main().getByRole('region', { name: 'Stringency' }).textContent()).toContain('Not weighed: no population of this organization is used by the rule');
    const populations = main().getByRole('status').getByRole('link', { name: 'Populations' });
    expect(await populations.getAttribute('href')).toBe(`/${state.orgId}/populations`);
  });

  it('is weighed again with the FBI frequencies uploaded afterwards, the old figures kept in its history', async () => {
    const created = await apiFetch<{ id: string; version: number }>(admin, 'POST', '/api/populations', { name: 'E2E New Lab FBI 2015 Caucasian', kind: 'Autosomal', organizationIds: [state.orgId] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const uploaded = await apiUpload(admin, `/api/populations/${created.body.id}/statistics`, { name: 'fbi2015.csv', text: FBI_2015 }, { version: String(created.body.version), population: 'Caucasian' });
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);

    await admin.reload();
    await main().getByRole('button', { name: 'Weigh again with the current populations' }).click();
    await main().locator('.hit-figures').getByText(/99\.99% \(CI/).waitFor({ timeout: 20_000 });
    expect(await main().locator('.hit-figures').textContent()).toContain('E2E New Lab FBI 2015 Caucasian');
    const history = main().getByRole('region', { name: 'History' });
    const weighed = history.getByRole('row').filter({ hasText: 'Weighed again with the current populations' });
    await weighed.waitFor();
    expect(await weighed.textContent()).toMatch(NOT_WEIGHED);
  });
});

describe('a bulk approval on the Review list', () => {
  it('leaves none of the four approved profiles on the list, without a reload', async () => {
    const names = ['BULK-A', 'BULK-B', 'BULK-C', 'BULK-D'];
    const text = ['SampleName,Marker,Allele1,Allele2', ...names.flatMap((name, i) => k48As(name).split('\n').slice(1).map((r) => (i === 0 ? r : r.replace(/,(\d+),(\d+)$/, (_m, a: string) => `,${a},${Number(a) + i}`))))].join('\n');
    await importProfiles(admin, state.caseId, { name: 'bulk.csv', text }, 'Convicted Offender');
    await admin.goto(`${baseUrl}/${state.orgId}/profiles/review`);
    for (const name of names) {
      const box = main().getByRole('checkbox', { name: `Select ${name} (E2E-NEW-0001)` });
      await box.waitFor({ timeout: 20_000 });
      await box.click();
    }
    await main().getByRole('region', { name: 'Selected profiles' }).getByRole('button', { name: 'Approve' }).click();
    await admin.getByRole('alertdialog').getByRole('button', { name: 'Approve 4 profiles' }).click();
    await main().getByText('4 approved.').waitFor({ timeout: 20_000 });
    await expect.poll(async () => (await main().getByText(/^BULK-[A-D]$/).count()), { timeout: 10_000 }).toBe(0);
    await main().getByText('No profile is waiting for review.').waitFor();
  });
});

describe('a bookmarked party or item form', () => {
  it('goes to the case’s tab on Save, never back through the browser’s history to the Dashboard', async () => {
    const page = await context.newPage();
    const parties = `${baseUrl}/${state.orgId}/cases/${state.caseId}`;
    // Opened straight from a bookmark: nothing before it in this tab's history.
    await page.goto(`${parties}/invloved-parties/new/edit`);
    await page.getByLabel(/^Title/).fill('Suspect 1');
    await page.getByLabel(/^Role/).selectOption({ label: 'Suspect' });
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(parties, { timeout: 20_000 });
    await page.getByRole('main').getByText('Suspect 1').waitFor();

    await page.goto(`${parties}/items/new/edit`);
    await page.getByLabel(/^Item id/).fill('0301-E1');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(`${parties}/items`, { timeout: 20_000 });
    await page.getByRole('main').getByText('0301-E1').waitFor();
    await page.close();
  });
});

describe('accessibility of the dashboard', () => {
  it('has no serious or moderate axe violation, its charts included', async () => {
    for (const dashboard of [`${baseUrl}/all`, `${baseUrl}/${state.orgId}`]) {
      await admin.goto(dashboard);
      await admin.getByRole('heading', { name: 'Published hits' }).waitFor({ timeout: 20_000 });
      await admin.locator('.stats-chart svg').first().waitFor({ timeout: 20_000 });
      // The panels read their figures on their own: give the last of them a moment.
      await admin.waitForTimeout(1500);
      const violations = await axeViolations(admin);
      expect(violations.filter((v) => v.impact !== 'minor'), dashboard).toEqual([]);
    }
  });
});
