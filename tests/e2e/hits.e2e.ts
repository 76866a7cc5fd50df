/**
 * Issues 6 and 12 end to end, in Chromium against the real server: profiles typed as a laboratory
 * types them — a missing child's remains with the biological mother and father (EuroForMix GlobalFiler
 * references K29 and K48), an unknown stain and a convicted offender who is the father — are imported
 * and approved; the search rules decide what is searched against what, and the hits the screens then
 * show in Review are one per match, with the engine's probability text and roles named from the sample
 * types. A reviewer publishes one with notify (the e-mail is in the outbox), rejects one, resets it and
 * downloads the PDF report (issue 18: rendered to PNG with pdftoppm; page 1 leads with the conclusion, θ and κ
 * print as themselves); a keyboard search finds the father; the other organization's user never sees these hits.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { AnalysisResult } from '../../core/schemas/analyses';
import type { HitSummary } from '../../core/schemas/hits';
import { launchChromium } from './browser';
import { E2E_SECOND_ADMIN } from './fixtures';
import { apiFetch, apiUpload, approveProfile, importProfiles, signIn } from './session';
import { expectNoExponentForm } from '../helpers/exponent-form';

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

/** What each profile is, as the laboratory records it: the sample type decides which search rules run (server/db/seed/search-rules.ts). */
const SAMPLES = {
  'FAM-MOTHER': { genotypes: MOTHER, sampleType: 'Biological Mother' },
  'FAM-FATHER': { genotypes: FATHER, sampleType: 'Biological Father' },
  'FAM-CHILD': { genotypes: CHILD, sampleType: 'Unidentified Human (Remains)' },
  'UNKNOWN-STAIN': { genotypes: FATHER, sampleType: 'Forensic, Unknown' },
  OFFENDER: { genotypes: FATHER, sampleType: 'Convicted Offender' },
} as const;

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

/** The hits of a list that name any profile of this suite's case (other suites share the server and its populations). */
const hitsOf = async (page: Page, list: string, orgId = state.orgId) =>
  (await apiFetch<Listed<HitSummary>>(page, 'GET', `/api/organizations/${orgId}/${list}?pageSize=200&search=${encodeURIComponent(CASE_NUMBER)}`)).body.items.filter((h) =>
    h.profiles.some((p) => p.caseNumber === CASE_NUMBER),
  );
const names = (hit: HitSummary) => hit.profiles.map((p) => p.sampleName).sort().join(' + ');
const summary = (hit: HitSummary) => `${hit.analysisName}: ${names(hit)}`;
/** The roles named from the sample types (their order follows the analysis role the searching profile took). */
const roles = (hit: HitSummary) => hit.profiles.map((p) => `${p.role}: ${p.sampleName}`).sort();
const main = (page: Page) => page.getByRole('main');

/**
 * Downloads the open hit's PDF as the reviewer does and renders it as a reader sees it: every page to PNG with
 * pdftoppm (Debian's poppler-utils), the text with pdftotext; page 1's text apart, its lines joined.
 */
async function downloadHitPdf(): Promise<{ page1: string; text: string; pages: string[] }> {
  const download = reviewer.waitForEvent('download');
  await main(reviewer).getByRole('button', { name: 'Download PDF' }).first().click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/\.pdf$/);
  const dir = mkdtempSync(path.join(tmpdir(), 'locus-hit-pdf-'));
  const pdf = path.join(dir, 'hit.pdf');
  writeFileSync(pdf, readFileSync((await file.path())!));
  expect(readFileSync(pdf).subarray(0, 5).toString()).toBe('%PDF-');
  execFileSync('pdftoppm', ['-png', '-r', '60', pdf, path.join(dir, 'page')]);
  expect(readFileSync(path.join(dir, 'page-1.png')).subarray(1, 4).toString()).toBe('PNG');
  const flat = (text: string) => text.replace(/\s+/g, ' ');
  const text = execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' });
  const page1 = execFileSync('pdftotext', ['-layout', '-f', '1', '-l', '1', pdf, '-'], { encoding: 'utf8' });
  return { page1: flat(page1), text, pages: [path.join(dir, 'page-1.png')] };
}

/** Finds a hit in the Review list by its analysis and profiles: exactly one row (one hit per match, every population in it). */
async function openFromReview(analysis: string, samples: string[]) {
  await reviewer.goto(`${baseUrl}/${state.orgId}/hits`);
  const row = main(reviewer)
    .getByRole('row')
    .filter({ hasText: analysis })
    .filter({ hasText: `${samples[0]!} (${CASE_NUMBER})` })
    .filter({ hasText: `${samples[1]!} (${CASE_NUMBER})` });
  await row.first().waitFor({ timeout: 20_000 });
  expect(await row.count()).toBe(1);
  return row.first();
}

/** The hit's profiles as HitView lists them, role and sample name, sorted. */
async function hitViewRoles(page: Page) {
  const items = await main(page).getByRole('list', { name: 'Profiles of the hit' }).getByRole('listitem').allTextContents();
  return items.map((t) => t.replace(/ \(case .*\)$/, '')).sort();
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

  it('imports remains with their biological parents, an unknown stain and an offender, each with its sample type, and the reviewer approves all five', async () => {
    for (const [name, { genotypes, sampleType }] of Object.entries(SAMPLES)) {
      Object.assign(state.profiles, await importProfiles(analyst, state.caseId, { name: `${name}.csv`, text: asCsv({ [name]: genotypes }) }, sampleType));
    }
    expect(Object.keys(state.profiles).sort()).toEqual(['FAM-CHILD', 'FAM-FATHER', 'FAM-MOTHER', 'OFFENDER', 'UNKNOWN-STAIN']);
    for (const id of Object.values(state.profiles)) await approveProfile(reviewer, id);
  });

  it('shows one hit per match in Review, as the search rules decide, with the engine’s probability text and roles named from the sample types', async () => {
    // The searches run in the background: wait until the stain's identity with the offender is recorded and every search is done.
    await expect
      .poll(async () => (await hitsOf(reviewer, 'pending-hits')).filter((h) => h.analysisName === 'Identity').map(names), { timeout: 60_000 })
      .toEqual(['OFFENDER + UNKNOWN-STAIN']);
    await expect.poll(async () => (await apiFetch<Listed<{ status: string }>>(reviewer, 'GET', `/api/organizations/${state.orgId}/searches`)).body.items.every((j) => j.status === 'done'), { timeout: 60_000 }).toBe(true);
    const pending = await hitsOf(reviewer, 'pending-hits');
    // One hit per match, whatever the number of populations: the stain with the offender (forensic
    // against offenders, identity), the remains with each parent (remains against relatives,
    // parent–child). Nothing else: the parents are unrelated; the offender and the stain are the
    // remains' father, but no rule searches forensic or offender profiles against remains; the
    // father's reference is the stain's donor, but no rule searches relatives against stains.
    expect(pending.map(summary).sort()).toEqual(['Identity: OFFENDER + UNKNOWN-STAIN', 'Parent–child: FAM-CHILD + FAM-FATHER', 'Parent–child: FAM-CHILD + FAM-MOTHER']);

    const identity = pending.find((h) => h.analysisName === 'Identity')!;
    expect(identity.matchKind).toBe('identity');
    expect(roles(identity)).toEqual(['Evidence: UNKNOWN-STAIN', 'Reference: OFFENDER']);
    for (const kinship of pending.filter((h) => h.analysisName === 'Parent–child')) {
      expect(kinship.matchKind).toBe('kinship');
      expect(roles(kinship)[0]).toBe('Missing person: FAM-CHILD');
      expect(roles(kinship)[1]).toMatch(/^Relative: FAM-(MOTHER|FATHER)$/);
    }
    // Every population of the organization side by side in the one hit, this suite's among them; the hit reports the smallest LR.
    const populations = identity.figures!.populations;
    expect(populations.map((p) => p.populationName)).toContain(POPULATION);
    expect(populations.some((p) => p.synthetic)).toBe(false);
    const reported = populations.find((p) => p.reported)!;
    expect(identity.combinedIndex).toBe(Math.min(...populations.map((p) => p.combinedIndex!)));

    const engine = await apiFetch<AnalysisResult>(reviewer, 'POST', `/api/analyses/${identity.analysisId}/analyze`, {
      profileIds: identity.profiles.map((p) => p.profileId),
      populationIds: [...new Set([reported.populationId!, state.populationId])],
    });
    expect(engine.status, JSON.stringify(engine.body)).toBe(200);
    for (const result of engine.body.populations) {
      const stored = populations.find((p) => p.populationId === result.populationId)!;
      expect(stored.combinedIndex).toBeCloseTo(result.combinedIndex!, -Math.floor(Math.log10(stored.combinedIndex!)) + 9);
      expect(stored.probability).toBe(result.probability);
    }
    const shown = engine.body.populations.find((p) => p.populationId === reported.populationId)!;
    expect(shown.probability).toMatch(/^99\.99% \(CI \d\.\d{2}e\+\d+\)$/);
    expect(identity.probability).toBe(shown.probability);

    const row = await openFromReview('Identity', ['OFFENDER', 'UNKNOWN-STAIN']);
    await expect.poll(() => row.textContent()).toContain(shown.probability);
  });

  it('publishes the identity hit with notify: the history says so and the e-mail to the analyst is in the outbox', async () => {
    const row = await openFromReview('Identity', ['OFFENDER', 'UNKNOWN-STAIN']);
    await row.getByText('Identity', { exact: true }).click();
    await reviewer.waitForURL(/\/hits\/[0-9a-f-]{36}$/);
    await reviewer.getByRole('heading', { level: 1, name: /^Identity: / }).waitFor();
    await expect.poll(() => hitViewRoles(reviewer)).toEqual(['Evidence: UNKNOWN-STAIN', 'Reference: OFFENDER']);
    await decide('Publish', 'Same source as the offender’s reference; report to the investigator.');
    await reviewer.getByRole('region', { name: 'Review' }).getByRole('status').filter({ hasText: 'Published.' }).waitFor();
    await main(reviewer).getByText('Same source as the offender’s reference; report to the investigator.').first().waitFor();

    const outbox = await apiFetch<Listed<{ to: string; subject: string; text: string; templateKey: string }>>(admin, 'GET', '/api/email-outbox?pageSize=50');
    expect(outbox.status).toBe(200);
    const mail = outbox.body.items.find((m) => m.templateKey === 'hit-published' && m.to.includes('analyst@demo.locus.local') && m.text.includes(CASE_NUMBER));
    expect(mail, JSON.stringify(outbox.body.items.map((m) => [m.to, m.subject]))).toBeDefined();
    expect((await hitsOf(reviewer, 'published-hits')).map(summary)).toEqual(['Identity: OFFENDER + UNKNOWN-STAIN']);
  });

  it('rejects a parent–child hit with a reason, resets it back to Review, and downloads a hit report as a PDF', async () => {
    const row = await openFromReview('Parent–child', ['FAM-CHILD', 'FAM-MOTHER']);
    await row.getByText('Parent–child', { exact: true }).click();
    await reviewer.waitForURL(/\/hits\/[0-9a-f-]{36}$/);
    const hitId = new URL(reviewer.url()).pathname.split('/').at(-1)!;
    await reviewer.getByRole('heading', { level: 1, name: /^Parent–child: / }).waitFor();
    await expect.poll(() => hitViewRoles(reviewer)).toEqual(['Missing person: FAM-CHILD', 'Relative: FAM-MOTHER']);
    await decide('Reject', 'The mother’s reference was collected from the wrong person; a new sample is requested.');
    await expect.poll(async () => (await hitsOf(reviewer, 'rejected-hits')).map((h) => h.id)).toContain(hitId);
    await decide('Reset to pending', 'Rejected too early: the supervisor reviews it.');
    await expect.poll(async () => (await hitsOf(reviewer, 'pending-hits')).map((h) => h.id)).toContain(hitId);

    const kinship = await downloadHitPdf();
    // Page 1 leads with the conclusion: the hypotheses and the LR in words on the laboratory's verbal scale (ENFSI 2015).
    expect(kinship.page1).toContain('Conclusion');
    expect(kinship.page1).toMatch(/H1: FAM-CHILD \(Missing person\) and FAM-MOTHER \(Relative\) are related as Parent–child/);
    expect(kinship.page1).toMatch(/The DNA results are [\d.,]+( × 10[⁰¹²³⁴⁵⁶⁷⁸⁹]+)? times more likely if FAM-CHILD/);
    expect(kinship.page1).toMatch(/The findings provide [a-z ]+ support for “H1” rather than “H2”/);
    expect(kinship.page1).toMatch(/Page 1 of \d/);
    // κ and μ print as themselves (the built-in PDF font printed κ as ;¢), the arrow too; no 1.18e+1.
    expect(kinship.text).toContain('κ0');
    expect(kinship.text).toMatch(/Rejected\s+→/);
    expectNoExponentForm(kinship.text);
    // The profiles' kit: the import suggests the smallest kit holding every typed marker, and GF_refs.csv's 21 markers
    // are in GlobalFiler and in Investigator 24plex (kit.txt's kits are seeded since issue 31).
    expect(kinship.text).toMatch(/Kit[\s\S]*(GlobalFiler|Investigator)/);
    for (const expected of ['Allele frequencies', 'Formulae used', 'Signatures', 'Prepared by', 'Reviewed by']) expect(kinship.text, expected).toContain(expected);
  });

  it('the identity hit’s PDF states the LR and 1 in X on page 1, and prints θ', async () => {
    const [published] = await hitsOf(reviewer, 'published-hits');
    await reviewer.goto(`${baseUrl}/${state.orgId}/hits/${published!.id}`);
    await reviewer.getByRole('heading', { level: 1, name: /^Identity: / }).waitFor();
    const identity = await downloadHitPdf();
    expect(identity.page1).toContain('H1: UNKNOWN-STAIN (Evidence) and OFFENDER (Reference) come from the same person');
    expect(identity.page1).toMatch(/The DNA results are [\d.]+ × 10[⁰¹²³⁴⁵⁶⁷⁸⁹]+ times more likely if UNKNOWN-STAIN/);
    expect(identity.page1).toMatch(/has the same DNA profile is 1 in [\d.]+ × 10[⁰¹²³⁴⁵⁶⁷⁸⁹]+/);
    expect(identity.page1).toContain('extremely strong support for “H1” rather than “H2”');
    expect(identity.text).toContain('Same source (NRC II 4.10, θ = 0.01)');
    expect(identity.text).toMatch(/θ\s+0\.01/);
    // Published: the reviewer's name and date fill the signature block's Reviewed by (no blank to fill in by hand).
    expect(identity.text).toContain('Reviewed by');
    expect(identity.text).not.toContain('Name: ________________________');
    expectNoExponentForm(identity.text);
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
