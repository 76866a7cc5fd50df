/**
 * Issue 18 "Done means": four-eyes review in Chromium. The analyst imports a reference profile and, in its profile
 * view, is not offered Approve and is told why; the server refuses the approval too. The reviewer approves it in the
 * profile view, which then names who entered it and who approved it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchChromium } from './browser';
import { apiFetch, importProfiles, signIn } from './session';

const baseUrl = inject('baseUrl');
const demoPassword = inject('demoPassword');
const SHARED = path.resolve(import.meta.dirname, '../../../shared/data');
const SAMPLE = 'FOUR-EYES-REF-1';
const CASE_NUMBER = 'E2E-2026-1800';

/** GF_refs.csv's K29, named SAMPLE, as a GeneMapper table. */
function reference(): string {
  const rows = readFileSync(path.join(SHARED, 'formats/genemapper/GF_refs.csv'), 'utf8').trim().split(/\r?\n/);
  return [rows[0]!, ...rows.slice(1).filter((r) => r.startsWith('K29,')).map((r) => r.replace(/^K29,/, `${SAMPLE},`))].join('\n');
}

let browser: Browser;
const contexts: BrowserContext[] = [];
let analyst: Page;
let reviewer: Page;
const state = { orgId: '', caseId: '', profileId: '' };

async function as(email: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
  contexts.push(context);
  const page = await signIn(context, baseUrl, email, demoPassword);
  await page.waitForURL(/\/[0-9a-f-]{36}(\/|$)/);
  return page;
}

beforeAll(async () => {
  browser = await launchChromium();
  analyst = await as('analyst@demo.locus.local');
  reviewer = await as('reviewer@demo.locus.local');
  state.orgId = /^\/([0-9a-f-]{36})/.exec(new URL(analyst.url()).pathname)![1]!;
}, 90_000);
afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
});

const profileUrl = () => `${baseUrl}/${state.orgId}/cases/${state.caseId}/profiles/${state.profileId}`;
const review = (page: Page) => page.getByRole('region', { name: 'Review' });
const fact = (page: Page, term: string) => page.locator('dt', { hasText: new RegExp(`^${term}$`) }).locator('xpath=following-sibling::dd[1]');

describe('four-eyes review', () => {
  it('the analyst imports a profile and cannot approve it: the profile view says why, and the server refuses', async () => {
    const caseTypes = await apiFetch<{ items: { id: string }[] }>(analyst, 'GET', '/api/case-types?pageSize=1');
    const made = await apiFetch<{ id: string }>(analyst, 'POST', '/api/cases', { caseNumber: CASE_NUMBER, caseTypeId: caseTypes.body.items[0]!.id, organizationId: state.orgId, assignedUserIds: [] });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    state.caseId = made.body.id;
    state.profileId = (await importProfiles(analyst, state.caseId, { name: 'reference.csv', text: reference() }))[SAMPLE]!;

    await analyst.goto(profileUrl());
    await analyst.getByRole('heading', { name: `Autosomal profile ${SAMPLE}` }).waitFor();
    await expect.poll(() => review(analyst).getByRole('note').textContent()).toBe(`Four-eyes review: you entered or imported profile ${SAMPLE}, so another person must approve it.`);
    expect(await review(analyst).getByRole('button', { name: 'Approve' }).count()).toBe(0);
    expect(await fact(analyst, 'Entered by').textContent()).toMatch(/\S/);

    // Whatever the screen shows, the server decides.
    const profile = await apiFetch<{ version: number; markerValues: { markerId: string; alleles: string[] }[] }>(analyst, 'GET', `/api/profiles/${state.profileId}`);
    const refused = await apiFetch<{ error: string }>(analyst, 'POST', `/api/profiles/${state.profileId}/approve`, { version: profile.body.version, comments: '', markerValues: profile.body.markerValues.map(({ markerId, alleles }) => ({ markerId, alleles })) });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe(`Four-eyes review: you entered or imported profile ${SAMPLE}, so another person must approve it.`);
  });

  it('the reviewer approves it in the profile view, which names who entered it and who approved it', async () => {
    const me = await apiFetch<{ firstName: string; lastName: string; email: string }>(reviewer, 'GET', '/api/me');
    const reviewerName = `${me.body.firstName} ${me.body.lastName}`.trim() || me.body.email;
    const enteredBy = await fact(analyst, 'Entered by').textContent();

    await reviewer.goto(profileUrl());
    await reviewer.getByRole('heading', { name: `Autosomal profile ${SAMPLE}` }).waitFor();
    expect(await review(reviewer).getByRole('note').count()).toBe(0);
    await review(reviewer).getByLabel(/^Comments/).fill('Peaks checked against the electropherogram');
    await review(reviewer).getByRole('button', { name: 'Approve' }).click();
    await reviewer.getByRole('alertdialog').getByRole('button', { name: 'Approve' }).click();
    await review(reviewer).getByRole('status').filter({ hasText: 'Approved.' }).waitFor();

    await expect.poll(() => fact(reviewer, 'Approved by').textContent()).toMatch(new RegExp(`^${reviewerName}, `));
    expect(await fact(reviewer, 'Entered by').textContent()).toBe(enteredBy);
    expect(enteredBy).not.toBe(reviewerName);
  });
});
