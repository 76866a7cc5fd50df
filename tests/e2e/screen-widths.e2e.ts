/**
 * Issue 18 "Done means", screen widths: at 600 px every page scrolled sideways and the header hid
 * Change password and Sign out; at 1440 px the hits list cut the Profiles column after the first
 * profile, hiding the matched reference. In Chromium against the real server, at the spec's widths
 * (product-spec 9), the main screens are visited with a hit of two profiles in place; no page is
 * wider than the window, the account actions and the navigation stay reachable at 600 px, and the
 * hits list shows every profile of the hit in full. Issue 30: at 600, 1024 and 1440 px no grid cuts a cell's or a
 * header's text (flexible columns cut most values at 600 and 1024 px). Screenshots go to a temp dir (printed), or SHOTS_DIR.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { HitSummary } from '../../core/schemas/hits';
import { axeViolations } from './axe';
import { launchChromium } from './browser';
import { E2E_SECOND_ADMIN } from './fixtures';
import { apiFetch, apiUpload, approveProfile, importProfiles, signIn } from './session';

const baseUrl = inject('baseUrl');
const demoPassword = inject('demoPassword');
const SHARED = path.resolve(import.meta.dirname, '../../../shared/data');
const FBI_2015 = readFileSync(path.join(SHARED, 'frequencies/fbi2015.csv'), 'utf8');
const CASE_NUMBER = 'E2E-2026-0900';
const STAIN = 'SCREEN-STAIN-01';
const OFFENDER = 'SCREEN-OFFENDER-01';
const SHOTS = process.env.SHOTS_DIR ?? mkdtempSync(path.join(tmpdir(), 'locus-screen-widths-'));

/**
 * A person no other suite types (other suites' hits must not gain this case's profiles): at every
 * marker the first allele of GF_refs.csv's K29 and the second of K50.
 */
function genotypeCsv(sample: string): string {
  const rows = readFileSync(path.join(SHARED, 'formats/genemapper/GF_refs.csv'), 'utf8').trim().split(/\r?\n/).slice(1).map((r) => r.split(','));
  const k50 = new Map(rows.filter(([s]) => s === 'K50').map(([, marker, , b]) => [marker!, b!]));
  const lines = rows.filter(([s, marker]) => s === 'K29' && k50.has(marker!)).map(([, marker, a]) => `${sample},${marker},${a},${k50.get(marker!)}`);
  return ['SampleName,Marker,Allele1,Allele2', ...lines].join('\n');
}

const state = { orgId: '', caseId: '', stainId: '', hitId: '', analysisPath: '', userId: '' };
let browser: Browser;
const contexts: BrowserContext[] = [];
let analyst: Page;
let reviewer: Page;
let admin: Page;

async function as(email: string, password: string) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
  contexts.push(context);
  return signIn(context, baseUrl, email, password);
}

beforeAll(async () => {
  browser = await launchChromium();
  analyst = await as('analyst@demo.locus.local', demoPassword);
  await analyst.waitForURL(/\/[0-9a-f-]{36}(\/|$)/);
  state.orgId = /^\/([0-9a-f-]{36})/.exec(new URL(analyst.url()).pathname)![1]!;
  reviewer = await as('reviewer@demo.locus.local', demoPassword);
  admin = await as(E2E_SECOND_ADMIN.email, E2E_SECOND_ADMIN.password);
  console.log(`screen-widths: screenshots in ${SHOTS}`);
}, 120_000);
afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
});

/** The main screens, each with the text of its heading (the page has drawn when it shows). */
function screens(): { name: string; url: string; heading: RegExp }[] {
  const o = `/${state.orgId}`;
  const c = `${o}/cases/${state.caseId}`;
  return [
    { name: 'dashboard', url: o, heading: /^Dashboard$/ },
    { name: 'cases', url: `${o}/cases`, heading: /^Cases$/ },
    { name: 'case', url: c, heading: new RegExp(CASE_NUMBER) },
    { name: 'case-items', url: `${c}/items`, heading: new RegExp(CASE_NUMBER) },
    { name: 'case-profiles', url: `${c}/profiles`, heading: new RegExp(CASE_NUMBER) },
    { name: 'profile', url: `${c}/profiles/${state.stainId}`, heading: new RegExp(STAIN) },
    { name: 'profile-markers', url: `${c}/profiles/${state.stainId}/markers`, heading: /./ },
    { name: 'profile-form', url: `${c}/profiles/new/edit`, heading: /./ },
    { name: 'profile-import', url: `${c}/profiles/new/upload`, heading: /./ },
    { name: 'profiles', url: `${o}/profiles`, heading: /^Profiles$/ },
    { name: 'profile-review', url: `${o}/profiles/review`, heading: /./ },
    { name: 'hits-review', url: `${o}/hits`, heading: /./ },
    { name: 'hits-published', url: `${o}/hits/published`, heading: /./ },
    { name: 'hits-rejected', url: `${o}/hits/rejected`, heading: /./ },
    { name: 'hits-all', url: `${o}/hits/all`, heading: /./ },
    { name: 'hit', url: `${o}/hits/${state.hitId}`, heading: new RegExp(STAIN) },
    { name: 'analyses', url: `${o}/analyses`, heading: /^Analyses$/ },
    { name: 'calculator', url: `${o}/analyses/${state.analysisPath}`, heading: /./ },
    { name: 'keyboard-search', url: `${o}/keyboard-search`, heading: /^Keyboard search$/ },
    { name: 'users', url: `${o}/users`, heading: /^Users$/ },
    { name: 'user-editor', url: `${o}/users/${state.userId}/edit`, heading: /./ },
    { name: 'roles', url: `${o}/access-groups`, heading: /^Roles$/ },
    { name: 'populations', url: `${o}/populations`, heading: /^Populations$/ },
    { name: 'analysis-groups', url: `${o}/analysis-groups`, heading: /^Analysis groups$/ },
    { name: 'search-rules', url: `${o}/search-rules`, heading: /^Search rules$/ },
    { name: 'email-templates', url: `${o}/email-templates`, heading: /./ },
    { name: 'access-tokens', url: `${o}/access-tokens`, heading: /^Access tokens$/ },
    // Issue 32: the network of laboratories' screens.
    { name: 'foreign-queries', url: `${o}/foreign-queries`, heading: /^Foreign queries$/ },
    { name: 'candidate-matches', url: `${o}/candidate-matches`, heading: /^Candidate matches$/ },
    { name: 'upload-eligibility', url: `${o}/upload-eligibility-rules`, heading: /^Upload eligibility$/ },
    { name: 'service-clients', url: `${o}/service-clients`, heading: /^Service clients$/ },
    { name: 'network', url: `${o}/network`, heading: /^Network$/ },
    { name: 'network-delivery', url: `${o}/network/delivery`, heading: /^Network delivery$/ },
  ];
}

/** How far the page reaches past the window's right edge (0: no sideways scroll). */
const sidewaysScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

/** Opens a screen and waits until its heading and the count of any list on it have drawn. */
async function visit(page: Page, url: string, heading: RegExp) {
  await page.goto(`${baseUrl}${url}`);
  const main = page.getByRole('main');
  await main.getByRole('heading', { level: 1, name: heading }).first().waitFor({ timeout: 20_000 });
  // Every list loads (the search rules' once answered 500 for the seed's mixture rule).
  const loaded = main.getByText(/^(about )?[\d,]+ records?$/).or(main.getByText('The list could not be loaded.'));
  if (await main.getByRole('grid').count()) {
    await loaded.first().waitFor({ timeout: 20_000 });
    expect(await main.getByText('The list could not be loaded.').count(), `${url}: a list could not be loaded`).toBe(0);
  }
  // Lazy parts (charts, pedigrees) and the grids' column widths settle.
  await page.waitForTimeout(500);
}

/** True when the element shows all its content: nothing cut inside it, and inside the window and its grid's visible part. */
async function showsInFull(cell: Locator): Promise<boolean> {
  return cell.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const viewport = el.closest('.ag-body, .ag-grid-viewport, [role="grid"]')?.getBoundingClientRect() ?? new DOMRect(0, 0, window.innerWidth, window.innerHeight);
    const notCut = el.scrollWidth <= el.clientWidth + 1 && el.scrollHeight <= el.clientHeight + 1;
    const inView = box.left >= viewport.left && box.right <= viewport.right + 0.5 && box.right <= window.innerWidth;
    return notCut && inView;
  });
}

/**
 * The cells and headers of the page's grids whose text is cut (an ellipsis or clipped), named by
 * column and text. Only cells in view count: a wide grid scrolls sideways in its own box.
 */
const cutCells = (page: Page) =>
  page.evaluate(() => {
    const cut: string[] = [];
    const els = document.querySelectorAll<HTMLElement>('main .ag-cell, main .ag-cell-value, main .ag-cell .link, main .ag-cell a, main .ag-header-cell-text');
    for (const el of els) {
      // Long-text columns (an e-mail's body, an audit row's changes) show their start; the record's page shows the whole.
      if (!el.checkVisibility() || !el.textContent?.trim() || el.closest('.data-table__cell--long-text')) continue;
      const box = el.getBoundingClientRect();
      const viewport = el.closest('.ag-body, .ag-grid-viewport, [role="grid"]')?.getBoundingClientRect();
      if (viewport && (box.right <= viewport.left || box.left >= viewport.right)) continue;
      if (el.scrollWidth > el.clientWidth + 1) cut.push(`${el.closest('[col-id]')?.getAttribute('col-id') ?? '?'}: ${el.textContent.trim().slice(0, 40)}`);
    }
    return [...new Set(cut)];
  });

describe('screen widths', () => {
  it('sets up a case with a stain and the offender it matches, approved by the reviewer: one identity hit of two profiles', async () => {
    const population = await apiFetch<{ id: string; version: number }>(admin, 'POST', '/api/populations', { name: 'E2E Screen widths FBI 2015 Caucasian', kind: 'Autosomal', organizationIds: [state.orgId] });
    expect(population.status, JSON.stringify(population.body)).toBe(201);
    const uploaded = await apiUpload(admin, `/api/populations/${population.body.id}/statistics`, { name: 'fbi2015.csv', text: FBI_2015 }, { version: String(population.body.version), population: 'Caucasian' });
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);

    const caseTypes = await apiFetch<{ items: { id: string }[] }>(analyst, 'GET', '/api/case-types?pageSize=1');
    const me = await apiFetch<{ id: string }>(analyst, 'GET', '/api/me');
    state.userId = me.body.id;
    const made = await apiFetch<{ id: string }>(analyst, 'POST', '/api/cases', { caseNumber: CASE_NUMBER, caseTypeId: caseTypes.body.items[0]!.id, organizationId: state.orgId, assignedUserIds: [me.body.id] });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    state.caseId = made.body.id;
    const stain = await importProfiles(analyst, state.caseId, { name: 'stain.csv', text: genotypeCsv(STAIN) }, 'Forensic, Unknown');
    const offender = await importProfiles(analyst, state.caseId, { name: 'offender.csv', text: genotypeCsv(OFFENDER) }, 'Convicted Offender');
    state.stainId = stain[STAIN]!;
    await approveProfile(reviewer, state.stainId);
    await approveProfile(reviewer, offender[OFFENDER]!);

    const ours = async () =>
      (await apiFetch<{ items: HitSummary[] }>(reviewer, 'GET', `/api/organizations/${state.orgId}/pending-hits?pageSize=50&search=${CASE_NUMBER}`)).body.items.filter((h) =>
        h.profiles.every((p) => p.caseNumber === CASE_NUMBER),
      );
    await expect.poll(async () => (await ours()).map((h) => h.profiles.map((p) => p.sampleName).sort()), { timeout: 60_000 }).toEqual([[OFFENDER, STAIN]]);
    state.hitId = (await ours())[0]!.id;

    const groups = await apiFetch<{ items: { id: string; name: string }[] }>(admin, 'GET', '/api/analysis-groups?pageSize=50');
    const group = groups.body.items[0]!;
    const analyses = await apiFetch<{ items: { id: string }[] }>(admin, 'GET', `/api/analysis-groups/${group.id}/analyses?pageSize=1`);
    state.analysisPath = `${group.id}/${analyses.body.items[0]!.id}`;
  });

  // Issue 31: at 600 px the hit's Markers table scrolled sideways inside its frame (Formula and Value out of sight).
  it('at 600 px the hit’s Markers table shows each marker as a card, the genotypes aligned one under another, nothing scrolling sideways; at 1440 px it is still a table', async () => {
    const region = admin.getByRole('main').getByRole('region', { name: 'Markers' });
    const table = region.getByRole('table', { name: /^Markers/ });
    const measure = () =>
      table.evaluate((el) => {
        const frames = [el, el.closest('.calculator__scroll')!].filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => `${e.className}: ${e.scrollWidth} > ${e.clientWidth}`);
        const rows = [...el.querySelectorAll('tbody tr')];
        // Where each role's genotype text starts within its marker's card (the label before it is a pseudo-element, outside the range).
        const starts = rows.map((row) =>
          [...row.querySelectorAll('.calculator__genotype')].map((td) => {
            const range = document.createRange();
            range.selectNodeContents(td);
            return Math.round(range.getBoundingClientRect().left);
          }),
        );
        return { frames, rowDisplay: [...new Set(rows.map((r) => getComputedStyle(r).display))], starts, right: el.getBoundingClientRect().right, rows: rows.length };
      });

    await admin.setViewportSize({ width: 600, height: 1000 });
    await visit(admin, `/${state.orgId}/hits/${state.hitId}`, new RegExp(STAIN));
    const narrow = await measure();
    await region.screenshot({ path: path.join(SHOTS, 'hit-markers-600.png') });
    expect(narrow.rows).toBeGreaterThan(10);
    expect(narrow.frames).toEqual([]);
    expect(narrow.right).toBeLessThanOrEqual(600);
    expect(narrow.rowDisplay).toEqual(['block']);
    // Both profiles' genotypes begin at one x in every card: read down, the alleles compare.
    for (const starts of narrow.starts) expect(new Set(starts).size, `genotypes start at ${starts.join(', ')}`).toBe(1);

    await admin.setViewportSize({ width: 1440, height: 1000 });
    const wide = await measure();
    await region.screenshot({ path: path.join(SHOTS, 'hit-markers-1440.png') });
    expect(wide.rowDisplay).toEqual(['table-row']);
    for (const column of ['Marker', 'Pattern', 'Formula', 'Value']) expect((await table.getByRole('columnheader', { name: column }).boundingBox())!.width, column).toBeGreaterThan(20);
  });

  for (const width of [600, 1024, 1440]) {
    it(`at ${width} px no main screen scrolls sideways and no grid cuts a cell's text`, async () => {
      await admin.setViewportSize({ width, height: 1000 });
      const wide: string[] = [];
      const cut: string[] = [];
      for (const screen of screens()) {
        await visit(admin, screen.url, screen.heading);
        const shot = () => admin.screenshot({ path: path.join(SHOTS, `${screen.name}-${width}.png`), fullPage: true });
        // Chromium now and then refuses a full-page capture ("Unable to capture screenshot", once in a whole run on 2026-12-02, the same screens passing alone): one more try.
        await shot().catch(() => admin.waitForTimeout(500).then(shot));
        const over = await sidewaysScroll(admin);
        if (over > 0) wide.push(`${screen.name} (${over} px too wide)`);
        // A grid whose rows just arrived sizes its columns a moment later: measure again until it settles (a real cut stays).
        let cells = await cutCells(admin);
        for (let tries = 0; cells.length > 0 && tries < 10; tries++) {
          await admin.waitForTimeout(300);
          cells = await cutCells(admin);
        }
        cut.push(...cells.map((c) => `${screen.name}: ${c}`));
      }
      expect(wide).toEqual([]);
      expect(cut).toEqual([]);
    });
  }

  it('at 1440 px no main screen has a serious or moderate axe violation', async () => {
    await admin.setViewportSize({ width: 1440, height: 1000 });
    const found: string[] = [];
    for (const screen of screens()) {
      await visit(admin, screen.url, screen.heading);
      for (const v of await axeViolations(admin)) if (v.impact !== 'minor') found.push(`${screen.name}: ${v.impact} ${v.id} (${v.help}) at ${v.targets.slice(0, 3).join(', ')}`);
    }
    expect(found).toEqual([]);
  });

  it('at 600 px Access tokens, Change password and Sign out are in the header’s Account menu, and the navigation opens from Menu', async () => {
    await admin.setViewportSize({ width: 600, height: 1000 });
    await visit(admin, `/${state.orgId}/cases`, /^Cases$/);
    const header = admin.getByRole('banner');
    const account = header.getByRole('button', { name: 'Account' });
    expect(await account.isVisible()).toBe(true);
    await account.click();
    for (const item of [header.getByRole('link', { name: 'Access tokens' }), header.getByRole('button', { name: 'Change password' }), header.getByRole('button', { name: 'Sign out' })]) {
      await item.waitFor();
      const box = (await item.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(600);
    }
    await admin.screenshot({ path: path.join(SHOTS, 'account-menu-600.png') });

    await header.getByRole('button', { name: 'Change password' }).click();
    const dialog = admin.getByRole('dialog', { name: 'Change password' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });

    await header.getByRole('link', { name: 'Access tokens' }).click();
    await admin.getByRole('heading', { level: 1, name: 'Access tokens' }).waitFor();
    expect(await header.getByRole('button', { name: 'Sign out' }).isVisible()).toBe(false);

    await header.getByRole('button', { name: 'Menu' }).click();
    const hits = admin.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Hits' });
    await hits.waitFor();
    await admin.screenshot({ path: path.join(SHOTS, 'navigation-600.png') });
    await hits.click();
    await admin.waitForURL(new RegExp(`/${state.orgId}/hits$`));
    expect(await sidewaysScroll(admin)).toBeLessThanOrEqual(0);
  });

  for (const width of [1440, 1920]) {
    it(`at ${width} px the hits list shows both profiles of the hit in full, the matched reference too`, async () => {
      await reviewer.setViewportSize({ width, height: 1000 });
      await visit(reviewer, `/${state.orgId}/hits`, /./);
      const row = reviewer.getByRole('main').getByRole('row').filter({ hasText: `${STAIN} (${CASE_NUMBER})` });
      await row.first().waitFor({ timeout: 20_000 });
      const cell = row.first().locator('[role="gridcell"][col-id="profiles"]');
      expect(await cell.textContent()).toContain(`${OFFENDER} (${CASE_NUMBER})`);
      // Issue 30: columns are as wide as their content, so at 1440 px the grid may scroll sideways in its own box
      // (the seven columns with this suite's long population name are wider than the window): scrolled to with the
      // grid's scroll bar, as a user would, the cell shows whole.
      await cell.evaluate((el) => {
        const grid = el.closest('.ag-root-wrapper')!;
        const bars = [...grid.querySelectorAll<HTMLElement>('[class*="horizontal-scroll-viewport"]')];
        if (bars.length === 0) throw new Error(`no horizontal scroll bar among ${[...new Set([...grid.querySelectorAll('*')].flatMap((e) => [...e.classList]))].filter((c) => c.includes('scroll')).join(' ')}`);
        const view = el.closest('.ag-body, .ag-grid-viewport, [role="grid"]')!.getBoundingClientRect();
        for (const bar of bars) bar.scrollLeft += Math.max(0, el.getBoundingClientRect().right - view.right);
      });
      await expect.poll(() => showsInFull(cell)).toBe(true);
      await reviewer.screenshot({ path: path.join(SHOTS, `hits-profiles-${width}.png`) });
    });
  }
});
