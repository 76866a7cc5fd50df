/**
 * Issue 13 end to end, in Chromium against the real server: a 4-person mixture file (up to 13 alleles per
 * marker, Amelogenin written 1/2) imports and is added; a file with one bad profile adds the good ones and
 * lists the bad one with its reason; a 100,000-profile offender batch is added while a second browser
 * keeps using the app.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { genemapperLongTable } from '../../bench/import-bench';
import { launchChromium } from './browser';
import { apiFetch, signIn } from './session';

const baseUrl = inject('baseUrl');
const demoPassword = inject('demoPassword');
const LARGE = Number(process.env.E2E_IMPORT_PROFILES ?? 100_000);
const folder = mkdtempSync(path.join(tmpdir(), 'locus-import-e2e-'));

let browser: Browser;
const state = { orgId: '', caseId: '' };

/** Writes a file the test imports, as a laboratory's export would arrive. */
function file(name: string, text: string): string {
  const where = path.join(folder, name);
  writeFileSync(where, text);
  return where;
}

const CODIS = ['D3S1358', 'vWA', 'D16S539', 'CSF1PO', 'TPOX', 'D8S1179', 'D21S11', 'D18S51'];

/** A GeneMapper ID-X table of one 4-person mixture: 5–13 alleles per marker, Amelogenin 1/2 (NIST MIX05 style). */
function mixtureFile(): string {
  const header = ['Sample Name', 'Marker', ...Array.from({ length: 13 }, (_, i) => `Allele ${i + 1}`)].join('\t');
  const counts = [5, 8, 11, 13, 6, 9, 12, 7];
  const rows = CODIS.map((marker, m) => {
    const count = counts[m]!;
    return ['MIX05-4P', marker, ...Array.from({ length: 13 }, (_, i) => (i < count ? String(8 + i) : ''))].join('\t');
  });
  rows.push(['MIX05-4P', 'AMEL', '1', '2', ...Array(11).fill('')].join('\t'));
  return [header, ...rows].join('\r\n');
}

/** Three references and one whose D8S1179 allele is not a designation. */
function oneBadFile(): string {
  const lines = ['Sample Name,Marker,Allele 1,Allele 2'];
  for (const name of ['REF-A', 'REF-B', 'REF-C', 'REF-BAD']) {
    for (const [i, marker] of CODIS.entries()) lines.push(`${name},${marker},${10 + (i % 3)},${name === 'REF-BAD' && marker === 'D8S1179' ? 'abc' : 12 + (i % 4)}`);
  }
  return lines.join('\n');
}

async function caseProfileCount(page: Page): Promise<number> {
  return (await apiFetch<{ count: number }>(page, 'GET', `/api/cases/${state.caseId}/profiles`)).body.count;
}

/** Opens the import screen and chooses a file; resolves when the preview is shown. */
async function choose(page: Page, where: string, timeout = 20_000) {
  await page.goto(`${baseUrl}/${state.orgId}/cases/${state.caseId}/profiles/autosomal/upload`);
  await page.getByLabel('Profile file').setInputFiles(where);
  await page.getByRole('button', { name: /^Confirm and add/ }).waitFor({ timeout });
}

async function confirm(page: Page, sampleType: string, expected: number, timeout = 30_000) {
  await page.getByRole('combobox', { name: /^Sample Type/ }).selectOption(sampleType);
  await page.getByRole('button', { name: `Confirm and add ${expected.toLocaleString('en')} profile${expected === 1 ? '' : 's'}` }).click();
  await page.getByText(new RegExp(`Added ${expected.toLocaleString('en')} profiles? from`)).waitFor({ timeout });
}

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describe('imports of a laboratory’s real files', () => {
  let analystContext: BrowserContext;
  let analyst: Page;

  beforeAll(async () => {
    analystContext = await browser.newContext();
    analyst = await signIn(analystContext, baseUrl, 'analyst@demo.locus.local', demoPassword);
    await analyst.waitForURL(/\/[0-9a-f-]{36}(\/|$)/);
    state.orgId = /^\/([0-9a-f-]{36})/.exec(new URL(analyst.url()).pathname)![1]!;
    await analyst.goto(`${baseUrl}/${state.orgId}/cases/new/edit`);
    await analyst.getByLabel(/^Case number/).fill('E2E-2026-1300');
    await analyst.getByLabel(/^Case type/).selectOption({ index: 1 });
    await analyst.getByRole('button', { name: 'Save' }).click();
    await analyst.waitForURL(/\/cases\/[0-9a-f-]{36}\/profiles$/);
    state.caseId = /\/cases\/([0-9a-f-]{36})\/profiles$/.exec(new URL(analyst.url()).pathname)![1]!;
  }, 60_000);
  afterAll(() => analystContext.close());

  it('imports a 4-person mixture (13 alleles at a marker, Amelogenin 1/2) and adds it', async () => {
    await choose(analyst, file('MIX05-4P.txt', mixtureFile()));
    await expect.poll(() => analyst.getByText(/1\/2 read as X\/Y/).first().isVisible()).toBe(true);
    await confirm(analyst, 'Forensic Mixture', 1);
    const [profile] = (await apiFetch<{ items: { id: string; profileId: string }[] }>(analyst, 'GET', `/api/cases/${state.caseId}/profiles`)).body.items;
    expect(profile!.profileId).toBe('MIX05-4P');
    const full = (await apiFetch<{ markerValues: { marker: string; alleles: string[] }[] }>(analyst, 'GET', `/api/profiles/${profile!.id}`)).body;
    expect(Math.max(...full.markerValues.map((m) => m.alleles.length))).toBe(13);
    expect(full.markerValues.find((m) => m.marker === 'Amelogenin')!.alleles).toEqual(['X', 'Y']);
  });

  it('adds the good profiles of a file with one bad profile and lists the bad one with its reason', async () => {
    const before = await caseProfileCount(analyst);
    await choose(analyst, file('set-one-bad.csv', oneBadFile()));
    await expect.poll(() => analyst.getByText(/REF-BAD/).first().isVisible()).toBe(true);
    await expect.poll(() => analyst.getByText(/"abc" is not an allele designation/).first().isVisible()).toBe(true);
    await confirm(analyst, 'Convicted Offender', 3);
    expect(await caseProfileCount(analyst)).toBe(before + 3);
    const names = (await apiFetch<{ items: { profileId: string }[] }>(analyst, 'GET', `/api/cases/${state.caseId}/profiles?pageSize=50`)).body.items.map((p) => p.profileId);
    expect(names).toEqual(expect.arrayContaining(['REF-A', 'REF-B', 'REF-C']));
    expect(names).not.toContain('REF-BAD');
  });

  it(`adds ${LARGE.toLocaleString('en')} offender profiles while a second browser keeps using the app`, async () => {
    const before = await caseProfileCount(analyst);
    const big = file('offenders.txt', genemapperLongTable(LARGE));
    const readerContext = await browser.newContext();
    try {
      const reviewer = await signIn(readerContext, baseUrl, 'reviewer@demo.locus.local', demoPassword);
      await reviewer.waitForURL(/\/[0-9a-f-]{36}(\/|$)/);
      await choose(analyst, big, 600_000);
      await analyst.getByText(new RegExp(`${LARGE.toLocaleString('en')} profiles read`)).first().waitFor({ timeout: 30_000 });
      await analyst.getByRole('combobox', { name: /^Sample Type/ }).selectOption('Convicted Offender');
      await analyst.getByRole('button', { name: `Confirm and add ${LARGE.toLocaleString('en')} profiles` }).click();
      // While the batches are added, the other user moves between screens through the menu (the SPA keeps
      // its session; a full reload would re-run the sign-in of the e2e's short-lived tokens); each one answers.
      await reviewer.goto(`${baseUrl}/${state.orgId}/cases`);
      const menu = reviewer.getByRole('navigation', { name: 'Main' }).getByRole('link');
      await menu.first().waitFor({ timeout: 30_000 });
      const screens = Math.min(await menu.count(), 6);
      const waits: number[] = [];
      const added = analyst.getByText(new RegExp(`Added ${LARGE.toLocaleString('en')} profiles from`));
      for (let i = 0; !(await added.isVisible()); i = (i + 1) % screens) {
        const t0 = Date.now();
        const link = menu.nth(i);
        const name = (await link.textContent())?.trim() ?? `link ${i}`;
        try {
          await link.click({ timeout: 30_000 });
          await reviewer.getByRole('main').getByRole('heading').first().waitFor({ timeout: 30_000 });
        } catch (err) {
          // A page that hangs cannot be photographed; the error below still names the screen.
          await reviewer.screenshot({ path: path.join(folder, 'reviewer.png'), timeout: 5000 }).catch(() => undefined);
          throw new Error(`${name} after ${Date.now() - t0} ms (waits so far ${waits.join(', ')}); reviewer at ${reviewer.url()}: ${String(err)}`);
        }
        waits.push(Date.now() - t0);
        // A person reads a screen before the next one.
        await reviewer.waitForTimeout(1000);
      }
      console.log(`second browser: ${waits.length} screens while adding, slowest ${Math.max(...waits)} ms, median ${[...waits].sort((a, b) => a - b)[Math.floor(waits.length / 2)]} ms`);
      expect(waits.length).toBeGreaterThan(0);
      expect(await caseProfileCount(analyst)).toBe(before + LARGE);
    } finally {
      await readerContext.close();
    }
  }, 1_200_000);
});
