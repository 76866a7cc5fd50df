/**
 * Issue 12 end to end, in Chromium against the real server: a reviewer has the Review list open
 * when another user approves two matching stains; the database search records the hit, and the
 * reviewer's list shows it with no reload, over the organization's server-sent event stream.
 * Issue 18: a hit the reviewer publishes appears in another browser's open Published list, and the
 * counts of what waits for review in the navigation follow publications and imports, with no reload.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchChromium } from './browser';
import { E2E_SECOND_ADMIN } from './fixtures';
import { apiFetch, apiUpload, importProfiles, signIn } from './session';

const baseUrl = inject('baseUrl');
const demoPassword = inject('demoPassword');
const SHARED = path.resolve(import.meta.dirname, '../../../shared/data');
const FBI_2015 = readFileSync(path.join(SHARED, 'frequencies/fbi2015.csv'), 'utf8');

/** Reference K29 of GF_refs.csv (SampleName,Marker,Allele1,Allele2) under another sample name. */
function stain(name: string): string {
  const rows = readFileSync(path.join(SHARED, 'formats/genemapper/GF_refs.csv'), 'utf8').trim().split(/\r?\n/).slice(1);
  return rows.filter((r) => r.startsWith('K29,')).map((r) => r.replace(/^K29,/, `${name},`)).join('\n');
}

/** The figure a screen reader hears beside the navigation entry ("3 profiles waiting for review"); 0 when there is no badge. */
async function waitingInNavigation(page: Page, noun: 'profiles' | 'hits'): Promise<number> {
  const said = new RegExp(`^([\\d,]+) (?:${noun}|${noun.slice(0, -1)}) waiting for review$`);
  const [text] = await page.getByRole('navigation', { name: 'Main' }).getByText(said).allTextContents();
  return text === undefined ? 0 : Number(said.exec(text)![1]!.replace(/,/g, ''));
}

/** Marks the page, to show later that it was never reloaded. */
const mark = (page: Page) => page.evaluate(() => ((window as unknown as { stillTheSamePage: boolean }).stillTheSamePage = true));
const stillTheSamePage = (page: Page) => page.evaluate(() => (window as unknown as { stillTheSamePage?: boolean }).stillTheSamePage);

let browser: Browser;
const contexts: BrowserContext[] = [];
let analyst: Page;
let reviewer: Page;
let admin: Page;
let orgId = '';

async function as(email: string, password: string) {
  const context = await browser.newContext();
  contexts.push(context);
  return signIn(context, baseUrl, email, password);
}

beforeAll(async () => {
  browser = await launchChromium();
  analyst = await as('analyst@demo.locus.local', demoPassword);
  await analyst.waitForURL(/\/[0-9a-f-]{36}(\/|$)/);
  orgId = /^\/([0-9a-f-]{36})/.exec(new URL(analyst.url()).pathname)![1]!;
  reviewer = await as('reviewer@demo.locus.local', demoPassword);
  admin = await as(E2E_SECOND_ADMIN.email, E2E_SECOND_ADMIN.password);
}, 120_000);
afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
});

describe('live updates of the hit lists', () => {
  it('shows another user’s new hits in an open Review list without a reload', async () => {
    const population = await apiFetch<{ id: string; version: number }>(admin, 'POST', '/api/populations', { name: 'E2E Live FBI 2015 Caucasian', kind: 'Autosomal', organizationIds: [orgId] });
    expect(population.status, JSON.stringify(population.body)).toBe(201);
    const uploaded = await apiUpload(admin, `/api/populations/${population.body.id}/statistics`, { name: 'fbi2015.csv', text: FBI_2015 }, { version: String(population.body.version), population: 'Caucasian' });
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
    const caseTypes = await apiFetch<{ items: { id: string }[] }>(analyst, 'GET', '/api/case-types?pageSize=1');
    const made = await apiFetch<{ id: string }>(analyst, 'POST', '/api/cases', { caseNumber: 'E2E-2026-1200', caseTypeId: caseTypes.body.items[0]!.id, organizationId: orgId, assignedUserIds: [] });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const profiles = await importProfiles(analyst, made.body.id, { name: 'stains.csv', text: `SampleName,Marker,Allele1,Allele2\n${stain('LIVE-STAIN-1')}\n${stain('LIVE-STAIN-2')}` }, 'Forensic, Unknown');

    // The reviewer opens Review and keeps it open; the page follows the organization's events.
    const stream = reviewer.waitForResponse((r) => r.url().endsWith(`/api/organizations/${orgId}/events`));
    await reviewer.goto(`${baseUrl}/${orgId}/hits`);
    expect((await stream).status()).toBe(200);
    const grid = reviewer.getByRole('main').getByRole('grid');
    await grid.waitFor();
    await reviewer.evaluate(() => ((window as unknown as { stillTheSamePage: boolean }).stillTheSamePage = true));
    expect(await grid.getByText(/LIVE-STAIN-1/).count()).toBe(0);

    // Another user approves both stains: the second one's search finds the first.
    for (const id of Object.values(profiles)) {
      const profile = await apiFetch<{ version: number; markerValues: { markerId: string; alleles: string[] }[] }>(admin, 'GET', `/api/profiles/${id}`);
      const approved = await apiFetch(admin, 'POST', `/api/profiles/${id}/approve`, { version: profile.body.version, comments: '', markerValues: profile.body.markerValues.map((v) => ({ markerId: v.markerId, alleles: v.alleles })) });
      expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    }

    await grid.getByText(/LIVE-STAIN-1/).first().waitFor({ timeout: 30_000 });
    // This suite's searches only: other suites' finished searches stay listed for ten minutes.
    await reviewer.getByRole('region', { name: 'Database searches' }).getByRole('listitem').filter({ hasText: /LIVE-STAIN-\d/ }).getByText(/done, [1-9]\d* new hits?/).first().waitFor({ timeout: 30_000 });
    expect(await reviewer.evaluate(() => (window as unknown as { stillTheSamePage?: boolean }).stillTheSamePage)).toBe(true);
  });

  it('shows a hit the reviewer publishes in another browser’s open Published list, and the hits waiting for review drop in its navigation (issue 18)', async () => {
    // The second administrator keeps Published open.
    const stream = admin.waitForResponse((r) => r.url().endsWith(`/api/organizations/${orgId}/events`));
    await admin.goto(`${baseUrl}/${orgId}/hits/published`);
    expect((await stream).status()).toBe(200);
    const grid = admin.getByRole('main').getByRole('grid');
    await grid.waitFor();
    await mark(admin);
    expect(await grid.getByText(/LIVE-STAIN-1/).count()).toBe(0);
    // The stains' hit (and any other still pending) waits for review.
    await expect.poll(() => waitingInNavigation(admin, 'hits'), { timeout: 10_000 }).toBeGreaterThan(0);
    const before = await waitingInNavigation(admin, 'hits');

    // The reviewer publishes the stains' hit; the analyst entered the stains, so four-eyes review allows it.
    type Pending = { items: { id: string; version: number; profiles: { sampleName: string }[] }[] };
    const pending = await apiFetch<Pending>(reviewer, 'GET', `/api/organizations/${orgId}/pending-hits?pageSize=100`);
    const hit = pending.body.items.find((h) => h.profiles.some((p) => p.sampleName === 'LIVE-STAIN-1'))!;
    expect(hit, JSON.stringify(pending.body)).toBeDefined();
    const published = await apiFetch(reviewer, 'POST', `/api/hits/${hit.id}/publish`, { version: hit.version, comments: 'Same donor', notify: false });
    expect(published.status, JSON.stringify(published.body)).toBe(200);

    await grid.getByText(/LIVE-STAIN-1/).first().waitFor({ timeout: 20_000 });
    await expect.poll(() => waitingInNavigation(admin, 'hits'), { timeout: 10_000 }).toBe(before - 1);
    expect(await stillTheSamePage(admin)).toBe(true);
  });

  it('raises the reviewer’s count of profiles waiting for review when an analyst imports one, without a reload (issue 18)', async () => {
    const stream = reviewer.waitForResponse((r) => r.url().endsWith(`/api/organizations/${orgId}/events`));
    await reviewer.goto(`${baseUrl}/${orgId}/cases`);
    expect((await stream).status()).toBe(200);
    await reviewer.getByRole('main').getByRole('heading', { level: 1 }).first().waitFor();
    await mark(reviewer);
    const counts = await apiFetch<{ profilesPending: number }>(reviewer, 'GET', `/api/organizations/${orgId}/review-counts`);
    await expect.poll(() => waitingInNavigation(reviewer, 'profiles'), { timeout: 10_000 }).toBe(counts.body.profilesPending);

    const caseTypes = await apiFetch<{ items: { id: string }[] }>(analyst, 'GET', '/api/case-types?pageSize=1');
    const made = await apiFetch<{ id: string }>(analyst, 'POST', '/api/cases', { caseNumber: 'E2E-2026-1201', caseTypeId: caseTypes.body.items[0]!.id, organizationId: orgId, assignedUserIds: [] });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    await importProfiles(analyst, made.body.id, { name: 'stain.csv', text: `SampleName,Marker,Allele1,Allele2\n${stain('LIVE-STAIN-3')}` }, 'Forensic, Unknown');

    await expect.poll(() => waitingInNavigation(reviewer, 'profiles'), { timeout: 10_000 }).toBe(counts.body.profilesPending + 1);
    expect(await stillTheSamePage(reviewer)).toBe(true);
  });
});
