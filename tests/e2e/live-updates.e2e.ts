/**
 * Issue 12 end to end, in Chromium against the real server: a reviewer has the Review list open
 * when another user approves two matching stains; the database search records the hit, and the
 * reviewer's list shows it with no reload, over the organization's server-sent event stream.
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
});
