/**
 * Issue 6 end to end, in Chromium against the real server: a reference family (mother and alleged
 * father from the EuroForMix GlobalFiler references, their child) and an unknown stain typed as the
 * child are imported and approved; the database search records the hits the screens then show in
 * Review with the engine's probability text. A reviewer publishes one with notify (the e-mail is in
 * the outbox), rejects one, resets it and downloads the PDF report; a keyboard search finds the
 * father; the other organization's user never sees these hits.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { AnalysisResult } from '../../core/schemas/analyses';
import type { HitSummary } from '../../core/schemas/hits';
import { launchChromium } from './browser';
import { E2E_SECOND_ADMIN } from './fixtures';
import { apiFetch, apiUpload, importProfiles, signIn } from './session';

const baseUrl = inject('baseUrl');
const demoPassword = inject('demoPassword');
const SHARED = path.resolve(import.meta.dirname, '../../../shared/data');
const FBI_2015 = readFileSync(path.join(SHARED, 'frequencies/fbi2015.csv'), 'utf8');
const POPULATION = 'E2E Hits FBI 2015 Caucasian';
const CASE_NUMBER = 'E2E-2026-0600';

type Listed<T> = { items: T[]; count: number };
type Genotypes = Map<string, [string, string]>;

/** The genotypes of one sample of GF_refs.csv (SampleName,Marker,Allele1,Allele2), in file order. */
function reference(sample: string): Genotypes {
  const rows = readFileSync(path.join(SHARED, 'formats/genemapper/GF_refs.csv'), 'utf8').trim().split(/\r?\n/).slice(1);
  return new Map(rows.map((r) => r.split(',')).filter(([s]) => s === sample).map(([, marker, a, b]) => [marker!, [a!, b!]]));
}

/** A child of `mother` and `father`: the mother's first allele and the father's second at every marker (Mendelian by construction). */
const childOf = (mother: Genotypes, father: Genotypes): Genotypes =>
  new Map([...mother].filter(([m]) => father.has(m)).map(([m, [a]]) => [m, [a, father.get(m)![1]].sort((x, y) => parseFloat(x) - parseFloat(y)) as [string, string]]));

const asCsv = (samples: Record<string, Genotypes>) =>
  ['SampleName,Marker,Allele1,Allele2', ...Object.entries(samples).flatMap(([name, g]) => [...g].map(([m, [a, b]]) => `${name},${m},${a},${b}`))].join('\n');

const MOTHER = reference('K29');
const FATHER = reference('K48');
const CHILD = childOf(MOTHER, FATHER);

const state = { orgId: '', otherOrgId: '', caseId: '', populationId: '', profiles: {} as Record<string, string> };
let browser: Browser;
const contexts: BrowserContext[] = [];
let analyst: Page;
let reviewer: Page;
let admin: Page;

async function as(email: string, password: string) {
  const context = await browser.newContext({ acceptDownloads: true });
  contexts.push(context);
  return signIn(context, baseUrl, email, password);
}
const orgOf = (page: Page) => /^\/([0-9a-f-]{36})/.exec(new URL(page.url()).pathname)![1]!;

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

const hitsOf = async (page: Page, list: string, orgId = state.orgId) =>
  (await apiFetch<Listed<HitSummary>>(page, 'GET', `/api/organizations/${orgId}/${list}?pageSize=200`)).body.items.filter((h) => h.populationName === POPULATION || h.populationName === null);
const names = (hit: HitSummary) => hit.profiles.map((p) => p.sampleName).sort().join(' + ');
const main = (page: Page) => page.getByRole('main');

/** Opens a hit from the Review list by its analysis and profiles, over the test's population. */
async function openFromReview(analysis: string, samples: string[]) {
  await reviewer.goto(`${baseUrl}/${state.orgId}/hits`);
  const row = main(reviewer)
    .getByRole('row')
    .filter({ hasText: analysis })
    .filter({ hasText: POPULATION })
    .filter({ hasText: samples[0]! })
    .filter({ hasText: samples[1]! });
  await row.first().waitFor({ timeout: 20_000 });
  return row.first();
}

async function decide(button: string, text: string) {
  const panel = reviewer.getByRole('region', { name: 'Review' });
  await panel.getByLabel(/^Comments/).fill(text);
  await panel.getByRole('button', { name: button }).click();
  await reviewer.getByRole('alertdialog').getByRole('button', { name: button }).click();
  await reviewer.getByRole('alertdialog').waitFor({ state: 'detached' });
}

describe('matching and the hit review', () => {
  it('sets up: a population of the organization with the FBI 2015 Caucasian frequencies, and a case assigned to the analyst', async () => {
    const created = await apiFetch<{ id: string; version: number }>(admin, 'POST', '/api/populations', { name: POPULATION, kind: 'Autosomal', organizationIds: [state.orgId] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    state.populationId = created.body.id;
    const uploaded = await apiUpload(admin, `/api/populations/${state.populationId}/statistics`, { name: 'fbi2015.csv', text: FBI_2015 }, { version: String(created.body.version), population: 'Caucasian' });
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);

    const me = await apiFetch<{ id: string }>(analyst, 'GET', '/api/me');
    const caseTypes = await apiFetch<Listed<{ id: string }>>(analyst, 'GET', '/api/case-types?pageSize=1');
    const made = await apiFetch<{ id: string }>(analyst, 'POST', '/api/cases', { caseNumber: CASE_NUMBER, caseTypeId: caseTypes.body.items[0]!.id, organizationId: state.orgId, assignedUserIds: [me.body.id] });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    state.caseId = made.body.id;
  });

  it('imports a reference family and an unknown, and the reviewer approves all four', async () => {
    Object.assign(state.profiles, await importProfiles(analyst, state.caseId, { name: 'family.csv', text: asCsv({ 'FAM-MOTHER': MOTHER, 'FAM-FATHER': FATHER, 'FAM-CHILD': CHILD }) }));
    Object.assign(state.profiles, await importProfiles(analyst, state.caseId, { name: 'stain.csv', text: asCsv({ 'UNKNOWN-STAIN': CHILD }) }, 'Forensic, Unknown'));
    expect(Object.keys(state.profiles).sort()).toEqual(['FAM-CHILD', 'FAM-FATHER', 'FAM-MOTHER', 'UNKNOWN-STAIN']);
    for (const id of Object.values(state.profiles)) {
      const profile = await apiFetch<{ version: number; markerValues: { markerId: string; alleles: string[] }[] }>(reviewer, 'GET', `/api/profiles/${id}`);
      const approved = await apiFetch(reviewer, 'POST', `/api/profiles/${id}/approve`, {
        version: profile.body.version,
        comments: 'Checked against the electropherogram',
        markerValues: profile.body.markerValues.map((v) => ({ markerId: v.markerId, alleles: v.alleles })),
      });
      expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    }
  });

  it('shows the expected hits in Review with the engine’s probability text, and none that should not be there', async () => {
    // The searches run in the background: wait until the stain's identity with the child is recorded.
    await expect
      .poll(async () => (await hitsOf(reviewer, 'pending-hits')).filter((h) => h.analysisName === 'Identity').map(names), { timeout: 60_000 })
      .toEqual(['FAM-CHILD + UNKNOWN-STAIN']);
    await expect.poll(async () => (await apiFetch<Listed<{ status: string }>>(reviewer, 'GET', `/api/organizations/${state.orgId}/searches`)).body.items.every((j) => j.status === 'done'), { timeout: 60_000 }).toBe(true);
    const pending = await hitsOf(reviewer, 'pending-hits');
    const parentChild = pending.filter((h) => h.analysisName === 'Parent–child').map(names).sort();
    // Every pair sharing an allele at each marker is a parent–child candidate: the parents with the
    // child and with the stain, and the stain with the child (identical profiles are compatible too).
    expect(parentChild).toEqual(['FAM-CHILD + FAM-FATHER', 'FAM-CHILD + FAM-MOTHER', 'FAM-CHILD + UNKNOWN-STAIN', 'FAM-FATHER + UNKNOWN-STAIN', 'FAM-MOTHER + UNKNOWN-STAIN']);
    // The parents are unrelated: no hit of any analysis names both of them.
    expect(pending.filter((h) => names(h) === 'FAM-FATHER + FAM-MOTHER')).toEqual([]);

    const identity = pending.find((h) => h.analysisName === 'Identity')!;
    const engine = await apiFetch<AnalysisResult>(reviewer, 'POST', `/api/analyses/${identity.analysisId}/analyze`, {
      profileIds: identity.profiles.map((p) => p.profileId),
      populationIds: [state.populationId],
    });
    expect(engine.status, JSON.stringify(engine.body)).toBe(200);
    expect(identity.combinedIndex).toBeCloseTo(engine.body.populations[0]!.combinedIndex!, -Math.floor(Math.log10(identity.combinedIndex!)) + 9);
    expect(engine.body.populations[0]!.probability).toMatch(/^99\.99% \(CI \d\.\d{2}e\+\d+\)$/);

    const row = await openFromReview('Identity', ['FAM-CHILD', 'UNKNOWN-STAIN']);
    await expect.poll(() => row.textContent()).toContain(engine.body.populations[0]!.probability);
  });

  it('publishes the identity hit with notify: the history says so and the e-mail to the analyst is in the outbox', async () => {
    const row = await openFromReview('Identity', ['FAM-CHILD', 'UNKNOWN-STAIN']);
    await row.getByText('Identity').click();
    await reviewer.waitForURL(/\/hits\/[0-9a-f-]{36}$/);
    await reviewer.getByRole('heading', { level: 1, name: /^Identity: / }).waitFor();
    await decide('Publish', 'Same source as the child’s reference; report to the investigator.');
    await reviewer.getByRole('region', { name: 'Review' }).getByRole('status').filter({ hasText: 'Published.' }).waitFor();
    await main(reviewer).getByText('Same source as the child’s reference; report to the investigator.').first().waitFor();

    const outbox = await apiFetch<Listed<{ to: string; subject: string; text: string; templateKey: string }>>(admin, 'GET', '/api/email-outbox?pageSize=50');
    expect(outbox.status).toBe(200);
    const mail = outbox.body.items.find((m) => m.templateKey === 'hit-published' && m.to.includes('analyst@demo.locus.local') && m.text.includes(CASE_NUMBER));
    expect(mail, JSON.stringify(outbox.body.items.map((m) => [m.to, m.subject]))).toBeDefined();
    expect((await hitsOf(reviewer, 'published-hits')).filter((h) => h.analysisName === 'Identity').map(names)).toEqual(['FAM-CHILD + UNKNOWN-STAIN']);
  });

  it('rejects a parent–child hit with a reason, resets it back to Review, and downloads a hit report as a PDF', async () => {
    const row = await openFromReview('Parent–child', ['FAM-MOTHER', 'UNKNOWN-STAIN']);
    await row.getByText('Parent–child', { exact: true }).click();
    await reviewer.waitForURL(/\/hits\/[0-9a-f-]{36}$/);
    const hitId = new URL(reviewer.url()).pathname.split('/').at(-1)!;
    await decide('Reject', 'The stain is the child’s own profile; the mother’s link is already reported through the child.');
    await expect.poll(async () => (await hitsOf(reviewer, 'rejected-hits')).map((h) => h.id)).toContain(hitId);
    await decide('Reset to pending', 'Rejected too early: the supervisor reviews it.');
    await expect.poll(async () => (await hitsOf(reviewer, 'pending-hits')).map((h) => h.id)).toContain(hitId);

    const download = reviewer.waitForEvent('download');
    await main(reviewer).getByRole('button', { name: 'Download PDF' }).first().click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/\.pdf$/);
    expect(readFileSync((await file.path())!).subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('a keyboard search of the father’s profile finds him, and stores no profile', async () => {
    const before = (await apiFetch<Listed<unknown>>(analyst, 'GET', `/api/organizations/${state.orgId}/profiles?pageSize=1`)).body.count;
    await analyst.goto(`${baseUrl}/${state.orgId}/keyboard-search`);
    await analyst.getByLabel('Chemistry').selectOption({ label: 'GlobalFiler' });
    await analyst.getByLabel('Paste a profile').fill([...FATHER].map(([m, [a, b]]) => `${m},${a},${b}`).join('\n'));
    await analyst.getByRole('button', { name: 'Fill the grid' }).click();
    await analyst.getByRole('checkbox', { name: POPULATION }).check();
    await analyst.getByLabel('Stringency').selectOption('high');
    await analyst.getByRole('button', { name: 'Search' }).click();
    const answer = analyst.getByRole('region', { name: 'Possible hits' });
    await answer.getByRole('link', { name: 'FAM-FATHER' }).first().waitFor({ timeout: 20_000 });
    const row = answer.getByRole('row').filter({ has: analyst.getByRole('link', { name: 'FAM-FATHER' }) }).first();
    expect(await row.textContent()).toMatch(/Identity over E2E Hits FBI 2015 Caucasian: 99\.99% \(CI \d\.\d{2}e\+\d+\)/);
    expect((await apiFetch<Listed<unknown>>(analyst, 'GET', `/api/organizations/${state.orgId}/profiles?pageSize=1`)).body.count).toBe(before);
  });

  it('the other organization’s user sees none of these hits, on screen or through the API', async () => {
    const other = await as('other-lab@demo.locus.local', demoPassword);
    await other.waitForURL(/\/[0-9a-f-]{36}(\/|$)/);
    state.otherOrgId = orgOf(other);
    expect(state.otherOrgId).not.toBe(state.orgId);
    const anyHit = (await hitsOf(reviewer, 'hits'))[0]!;
    expect((await apiFetch(other, 'GET', `/api/organizations/${state.orgId}/hits`)).status).toBe(403);
    expect((await apiFetch(other, 'GET', `/api/hits/${anyHit.id}`)).status).toBe(404);
    expect((await apiFetch(other, 'GET', `/api/hits/${anyHit.id}/download`)).status).toBe(404);
    const own = await apiFetch<Listed<HitSummary>>(other, 'GET', `/api/organizations/${state.otherOrgId}/hits?pageSize=200`);
    expect(own.body.items.flatMap((h) => h.profiles.map((p) => p.sampleName))).not.toContain('UNKNOWN-STAIN');

    await other.goto(`${baseUrl}/${state.otherOrgId}/hits/all`);
    await main(other).getByRole('heading', { level: 1 }).waitFor();
    await main(other).getByRole('grid').or(main(other).getByText('No hits yet. Hits appear once approved profiles match.')).first().waitFor();
    expect(await main(other).textContent()).not.toContain('UNKNOWN-STAIN');
  });
});
