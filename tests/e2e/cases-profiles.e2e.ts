/**
 * Issue 4 end to end, in Chromium against the real server: an analyst opens a case with an involved
 * party and an item, imports a real CMF file and a real reference table, fixes nothing and confirms;
 * a reviewer finds them pending in Review, approves one, rejects one and resets one; each step shows
 * in the audit tab. A token whose content was tampered with is refused.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchChromium } from './browser';
import { apiFetch, apiUpload, signIn } from './session';

const baseUrl = inject('baseUrl');
const demoPassword = inject('demoPassword');
const FORMATS = path.resolve(import.meta.dirname, '../../../shared/data/formats');
const CMF = path.join(FORMATS, 'cmf/Codis-Single-Profile.xml');
const GF_REFS = path.join(FORMATS, 'genemapper/GF_refs.csv');
const CASE_NUMBER = 'E2E-2026-0400';

let browser: Browser;
const state = { orgId: '', caseId: '' };

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const main = (page: Page) => page.getByRole('main');

/** How many profiles the case holds, through the API as the signed-in user. */
async function caseProfileCount(page: Page): Promise<number> {
  return (await apiFetch<{ count: number }>(page, 'GET', `/api/cases/${state.caseId}/profiles`)).body.count;
}

/** Chooses a file on the import screen and confirms the parsed profiles as they are; the preview saves nothing. */
async function importFile(page: Page, file: string, sampleType: string | null, expected: number) {
  await page.goto(`${baseUrl}/${state.orgId}/cases/${state.caseId}/profiles/autosomal/upload`);
  const before = await caseProfileCount(page);
  await page.getByLabel('Profile file').setInputFiles(file);
  await page.getByRole('table', { name: `Profiles in ${path.basename(file)}` }).waitFor({ timeout: 20_000 });
  expect(await caseProfileCount(page)).toBe(before);
  if (sampleType) await page.getByRole('combobox', { name: /^Sample Type/ }).selectOption(sampleType);
  await page.getByRole('combobox', { name: 'Item', exact: true }).selectOption({ label: 'ITEM-01 (Swab from the door handle)' });
  const confirm = page.getByRole('button', { name: `Confirm and add ${expected} profile${expected === 1 ? '' : 's'}` });
  await confirm.click();
  await page.getByText(new RegExp(`Added ${expected} profiles? from ${path.basename(file).replace('.', '\\.')}`)).waitFor({ timeout: 20_000 });
  expect(await caseProfileCount(page)).toBe(before + expected);
}

describe('cases and profiles', () => {
  let analystContext: BrowserContext;
  let analyst: Page;

  beforeAll(async () => {
    analystContext = await browser.newContext();
    analyst = await signIn(analystContext, baseUrl, 'analyst@demo.locus.local', demoPassword);
    await analyst.waitForURL(/\/[0-9a-f-]{36}(\/|$)/);
    state.orgId = /^\/([0-9a-f-]{36})/.exec(new URL(analyst.url()).pathname)![1]!;
  }, 60_000);
  afterAll(() => analystContext.close());

  it('creates a case, then lands on its profiles', async () => {
    await analyst.goto(`${baseUrl}/${state.orgId}/cases/new/edit`);
    await analyst.getByLabel(/^Case number/).fill(CASE_NUMBER);
    await analyst.getByLabel(/^Case type/).selectOption({ index: 1 });
    await analyst.getByRole('button', { name: 'Save' }).click();
    await analyst.waitForURL(/\/cases\/[0-9a-f-]{36}\/profiles$/);
    state.caseId = /\/cases\/([0-9a-f-]{36})\/profiles$/.exec(new URL(analyst.url()).pathname)![1]!;
    await expect.poll(() => analyst.getByRole('heading', { name: `Case ${CASE_NUMBER}` }).isVisible()).toBe(true);
  });

  it('adds an involved party and an item', async () => {
    await analyst.goto(`${baseUrl}/${state.orgId}/cases/${state.caseId}/invloved-parties/new/edit`);
    await analyst.getByLabel(/^Title/).fill('Victim');
    // Issue 18: a party's role is required, its name optional.
    await analyst.getByLabel(/^Role/).selectOption('victim');
    await analyst.getByLabel(/^Name/).fill('Kari Nordmann');
    await analyst.getByRole('button', { name: 'Save' }).click();
    await analyst.waitForURL(new RegExp(`/cases/${state.caseId}$`));
    await expect.poll(() => main(analyst).getByText('Kari Nordmann').first().isVisible(), { timeout: 15_000 }).toBe(true);

    await analyst.goto(`${baseUrl}/${state.orgId}/cases/${state.caseId}/items/new/edit`);
    await analyst.getByLabel(/^Item id/).fill('ITEM-01');
    await analyst.getByLabel('Description').fill('Swab from the door handle');
    await analyst.getByRole('button', { name: 'Save' }).click();
    await analyst.waitForURL(new RegExp(`/cases/${state.caseId}/items$`));
    await expect.poll(() => main(analyst).getByText('ITEM-01').isVisible(), { timeout: 15_000 }).toBe(true);
  });

  it('imports a real CMF file and a real reference table, saving nothing until confirmed', async () => {
    await importFile(analyst, CMF, null, 1);
    // GF_refs.csv: four EuroForMix references typed with GlobalFiler.
    await importFile(analyst, GF_REFS, 'Reference', 4);
    await analyst.goto(`${baseUrl}/${state.orgId}/cases/${state.caseId}/profiles`);
    await expect.poll(() => main(analyst).getByText('ABCD1234NL#01').isVisible(), { timeout: 15_000 }).toBe(true);
  });

  it('refuses a token whose profiles were changed after parsing', async () => {
    type Parsed = { suggestedChemistryId: string; profiles: { profileId: string; markerValues: { markerId: string; alleles: string[] }[] }[] };
    const parsed = await apiUpload<Parsed>(analyst, '/api/profiles/import', { name: 'tampered.xml', text: readFileSync(CMF, 'utf8') });
    const profiles = parsed.body.profiles.map((p) => ({ profileId: `${p.profileId}-X`, markerValues: p.markerValues.map((m) => ({ markerId: m.markerId, alleles: m.alleles })) }));
    const body = { caseId: state.caseId, chemistryId: parsed.body.suggestedChemistryId, sampleType: 'Reference', sampleSourceId: null, physicalItemId: null, laboratoryId: null, comments: '', profiles };
    const added = await apiFetch<{ details?: { approval?: string } }>(analyst, 'POST', '/api/profiles', body, { approval: parsed.headers['approval-token']! });
    expect(added.status).toBe(400);
    expect(added.body.details?.approval).toBe('mismatch');
  });

  describe('the reviewer', () => {
    let reviewerContext: BrowserContext;
    let reviewer: Page;

    beforeAll(async () => {
      reviewerContext = await browser.newContext();
      reviewer = await signIn(reviewerContext, baseUrl, 'reviewer@demo.locus.local', demoPassword);
    }, 60_000);
    afterAll(() => reviewerContext.close());

    /** Opens a pending profile from the Review list. */
    async function openFromReview(profileId: string) {
      await reviewer.goto(`${baseUrl}/${state.orgId}/profiles/review`);
      const cell = main(reviewer).getByRole('grid').getByText(profileId, { exact: true });
      await cell.waitFor({ timeout: 15_000 });
      await cell.click();
      await reviewer.getByRole('heading', { name: `Autosomal profile ${profileId}` }).waitFor({ timeout: 15_000 });
    }

    async function decide(button: string, confirm: string, comments?: string) {
      if (comments !== undefined) await reviewer.getByLabel(/^Comments/).fill(comments);
      await reviewer.getByRole('button', { name: button }).click();
      await reviewer.getByRole('alertdialog').getByRole('button', { name: confirm }).click();
    }

    it('finds every imported profile pending in Review', async () => {
      await reviewer.goto(`${baseUrl}/${state.orgId}/profiles/review`);
      const grid = main(reviewer).getByRole('grid');
      await grid.getByText('ABCD1234NL#01', { exact: true }).waitFor({ timeout: 15_000 });
      expect(await grid.getByText(CASE_NUMBER).count()).toBe(5);
    });

    it('approves one, rejects one and resets the approved one; each step is in the audit tab', async () => {
      await openFromReview('ABCD1234NL#01');
      await decide('Approve', 'Approve', 'Peaks checked against the electropherogram');
      await reviewer.getByText('Approved.').waitFor();
      await decide('Reset to pending', 'Reset', 'Item assignment to be checked');
      await reviewer.getByText('Reset to pending.').or(reviewer.getByText('Reset.')).first().waitFor();

      const second = readFileSync(GF_REFS, 'utf8').split(/\r?\n/)[1]!.split(',')[0]!;
      await openFromReview(second);
      await decide('Reject', 'Reject', 'Reference sample consumed; retype');
      await reviewer.getByText('Rejected.').waitFor();

      // The case's audit trail, read by the analyst (Cases ViewAudit).
      await analyst.goto(`${baseUrl}/${state.orgId}/cases/${state.caseId}/audit`);
      const audit = main(analyst).getByRole('grid');
      for (const action of ['Added', 'Imported', 'Approved', 'Reset', 'Rejected']) {
        await audit.getByText(action, { exact: true }).first().waitFor({ timeout: 15_000 });
      }
      expect(await audit.getByText('Imported', { exact: true }).count()).toBe(5);
    });
  });
});
