import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { IMPORT_BATCH_SIZE, importBatchSize, PGLITE_IMPORT_BATCH_SIZE, PROFILE_IMPORT_LIMIT_BYTES, type ImportState, type ProfileImportJob, type ProfileImportRow } from '../../../../core/schemas/profile-imports';
import type { Profile, ProfileImportResult, SampleType } from '../../../../core/schemas/profiles';
import { verifyAuditChain } from '../../../../server/audit/audit-trail';
import type { Db } from '../../../../server/db/database';
import { auditLog, caseTypes, chemistries, profileImportRows, profileImports, profiles, users } from '../../../../server/db/schema';
import { seedReferenceData } from '../../../../server/db/seed/reference-data';
import { loadPrincipal } from '../../../../server/identity/load-principal';
import { auditActor } from '../../../../server/http/audit-actor';
import { claimImport, runConfirm } from '../../../../server/http/profile-imports/confirm-import';
import { addChosen, checkChosen } from '../../../../server/http/profile-imports/add-import';
import { isBackgroundWork } from '../../../../server/db/turn-kind';
import { cancelImportWork, createImport, recoverImports, runParse, setJob } from '../../../../server/imports/profile-jobs';
import { createAccessGroup, createOrganization, createUser } from '../../../helpers/factories';
import { createTestApp, type TestApp } from '../../../helpers/app';
import { rowsOf } from '../../../helpers/raw-rows';
import { multipartBody } from '../../../helpers/multipart';
import { yieldToEventLoop } from '../../../../server/jobs/yield';

// Counted, not changed: the add lets the event loop turn between stretches of rows (issue 29).
vi.mock('../../../../server/jobs/yield', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../../server/jobs/yield')>();
  return { yieldToEventLoop: vi.fn(real.yieldToEventLoop) };
});

// Profile imports as jobs (issue 13): upload → parse in a worker → paged preview → confirm with the
// approval (one use, this user, this case) → check against the assignment → add in whole batches.

const clock = { current: new Date('2026-11-22T10:00:00Z'), now: () => clock.current };

let t: TestApp;
let db: Db;
let orgA: string;
let caseTypeId: string;
let globalFiler: string;
type Who = 'analystA' | 'analystA2' | 'readerA';
const tokens = {} as Record<Who, string>;
const userIds = {} as Record<Who, string>;

beforeAll(async () => {
  t = await createTestApp({ clock });
  db = t.database.db;
  await db.transaction((tx) => seedReferenceData(tx, { shareWith: [] }));
  orgA = (await createOrganization(db, 'Oslo Lab')).id;
  caseTypeId = (await db.select().from(caseTypes).limit(1))[0]!.id;
  const analyst = await createAccessGroup(db, { grants: { Cases: ['Read', 'Add', 'Edit', 'ChangeSettings'], Profiles: ['Read', 'Add', 'Edit', 'Delete', 'ViewAudit'], Markers: ['Read'] } });
  const reader = await createAccessGroup(db, { grants: { Cases: ['Read'], Profiles: ['Read'] } });
  const add = async (who: Who, accessGroupId: string) => {
    userIds[who] = (await createUser(db, { accessGroupId, organizationIds: [orgA] })).id;
    tokens[who] = t.verifier.issue(userIds[who]);
  };
  await add('analystA', analyst.id);
  await add('analystA2', analyst.id);
  await add('readerA', reader.id);
  globalFiler = (await db.select().from(chemistries)).find((c) => c.name === 'GlobalFiler')!.id;
}, 60_000);
afterAll(() => t.close());

function call(who: Who, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object, headers: Record<string, string> = {}) {
  return t.app.inject({ method, url, headers: { authorization: `Bearer ${tokens[who]}`, ...headers }, ...(payload ? { payload } : {}) });
}

let caseSeq = 0;
async function newCase(): Promise<string> {
  const res = await call('analystA', 'POST', '/api/cases', { caseNumber: `2026-2${String(++caseSeq).padStart(3, '0')}`, caseTypeId, organizationId: orgA, assignedUserIds: [] });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { id: string }).id;
}

const assignment = (caseId: string, sampleType: SampleType = 'Reference') => ({ caseId, chemistryId: globalFiler, sampleType, sampleSourceId: null, physicalItemId: null, laboratoryId: null, comments: '' });

/** A GeneMapper-like long table: one row per sample × marker, `columns` allele columns. */
function longTable(samples: { name: string; markers: Record<string, string[]> }[], columns = 2): string {
  const header = ['Sample Name', 'Marker', ...Array.from({ length: columns }, (_, i) => `Allele ${i + 1}`)].join(',');
  const rows = samples.flatMap((s) => Object.entries(s.markers).map(([marker, alleles]) => [s.name, marker, ...Array.from({ length: columns }, (_, i) => alleles[i] ?? '')].join(',')));
  return [header, ...rows].join('\n') + '\n';
}

/** `n` good single-source references named `<prefix>-0001`…. */
const references = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({ name: `${prefix}-${String(i + 1).padStart(4, '0')}`, markers: { D3S1358: ['15', '16'], vWA: ['14', '17'], FGA: [String(19 + (i % 6)), '24'] } }));

async function upload(who: Who, name: string, bytes: string | Buffer, fields: Record<string, string> = {}, url = '/api/profile-imports') {
  const body = await multipartBody(fields, { name, bytes });
  return t.app.inject({ method: 'POST', url, payload: body.payload, headers: { ...body.headers, authorization: `Bearer ${tokens[who]}` } });
}

/** Polls the job every 50 ms until it is in one of `states` (20 s at the most). */
async function waitFor(jobId: string, states: ImportState[], who: Who = 'analystA'): Promise<{ job: ProfileImportJob; token: string | undefined }> {
  const deadline = Date.now() + 20_000;
  let last: ProfileImportJob | undefined;
  for (;;) {
    const res = await call(who, 'GET', `/api/profile-imports/${jobId}`);
    expect(res.statusCode, res.body).toBe(200);
    last = res.json() as ProfileImportJob;
    if (states.includes(last.state)) return { job: last, token: res.headers['approval-token'] as string | undefined };
    if (Date.now() > deadline) throw new Error(`Import ${jobId} stayed ${last.state} (wanted ${states.join(' or ')}): ${last.message}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Uploads a file and waits for its parse; returns the parsed job and its approval token. */
async function parsed(name: string, csv: string, fields: Record<string, string> = {}) {
  const res = await upload('analystA', name, csv, fields);
  expect(res.statusCode, res.body).toBe(202);
  const started = res.json() as ProfileImportJob;
  expect(started).toMatchObject({ state: 'parsing', fileName: name });
  const { job, token } = await waitFor(started.id, ['parsed', 'failed']);
  expect(job.state, job.message).toBe('parsed');
  expect(token).toMatch(/^v2\./);
  return { job, token: token! };
}

async function rows(jobId: string, filter: 'all' | 'addable' | 'flagged' | 'problems', who: Who = 'analystA') {
  const res = await call(who, 'GET', `/api/profile-imports/${jobId}/profiles?filter=${filter}&pageSize=500`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { items: ProfileImportRow[]; count: number };
}

const confirm = (jobId: string, token: string, body: object, who: Who = 'analystA') => call(who, 'POST', `/api/profile-imports/${jobId}/add`, body, { approval: token });

/** The case's profiles, straight from the database (names and ids). */
const caseProfiles = (caseId: string) => db.select({ id: profiles.id, profileId: profiles.profileId, status: profiles.status, source: profiles.source }).from(profiles).where(eq(profiles.caseId, caseId));

const refusal = (res: { statusCode: number; json: () => unknown }) => {
  expect(res.statusCode).toBe(400);
  return (res.json() as { details?: { approval?: string } }).details?.approval;
};

async function jobRow(id: string) {
  const [row] = await db.select().from(profileImports).where(eq(profileImports.id, id));
  return row!;
}

async function principal(who: Who) {
  const [row] = await db.select().from(users).where(eq(users.id, userIds[who]));
  return loadPrincipal(db, row!);
}

/** The database, except that `after` runs once the `n`th transaction (one add batch each) has committed. */
function afterTransaction(target: Db, n: number, after: () => unknown): Db {
  let seen = 0;
  return new Proxy(target, {
    get(obj, prop) {
      const value = Reflect.get(obj, prop, obj) as unknown;
      if (prop === 'transaction') {
        return async (...args: unknown[]) => {
          const result = await (value as (...a: unknown[]) => Promise<unknown>).apply(obj, args);
          if (++seen === n) await after();
          return result;
        };
      }
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(obj) : value;
    },
  });
}

/** Claims a parsed import the way POST …/add does, on the given database (the job route's checks). */
async function claim(jobId: string, caseId: string, on: Db, choice: { include?: number[]; exclude?: number[] } = {}) {
  const user = await principal('analystA');
  return claimImport({ db: on, clock, actor: auditActor(user) }, user, await jobRow(jobId), assignment(caseId), choice);
}

describe('a file with a flagged profile', () => {
  it('previews 21 profiles with the flagged one and its reason, and adds only the 20 good ones', async () => {
    const caseId = await newCase();
    const csv = longTable([...references('GOOD', 20), { name: 'BAD-1', markers: { D3S1358: ['15', '16'], NOTAMARKER: ['1', '2'] } }]);
    const { job, token } = await parsed('refs.csv', csv);
    expect(job).toMatchObject({ profileCount: 21, flaggedCount: 1, fileName: 'refs.csv', suggestedChemistryId: expect.any(String) });
    expect(job.errors.map((e) => e.message)).toContain('Marker NOTAMARKER is invalid');

    const flagged = await rows(job.id, 'flagged');
    expect(flagged.count).toBe(1);
    expect(flagged.items).toHaveLength(1);
    expect(flagged.items[0]).toMatchObject({ index: 20, profileId: 'BAD-1', errors: ['Marker NOTAMARKER is invalid'], chosen: false, added: false });
    const all = await rows(job.id, 'all');
    expect(all.count).toBe(21);
    expect(all.items.map((r) => r.profileId).slice(0, 2)).toEqual(['GOOD-0001', 'GOOD-0002']);
    expect((await rows(job.id, 'addable')).count).toBe(20);

    const res = await confirm(job.id, token, assignment(caseId));
    expect(res.statusCode, res.body).toBe(202);
    expect(['checking', 'adding', 'added']).toContain((res.json() as ProfileImportJob).state);
    const { job: done, token: after } = await waitFor(job.id, ['added', 'parsed', 'interrupted']);
    expect(done).toMatchObject({ state: 'added', addedCount: 20, chosenCount: 20, problemCount: 0, caseId });
    expect(after).toBeUndefined();

    const inCase = await caseProfiles(caseId);
    expect(inCase.map((p) => p.profileId).sort()).toEqual(references('GOOD', 20).map((r) => r.name));
    expect(new Set(inCase.map((p) => p.status))).toEqual(new Set(['pending']));
    expect(new Set(inCase.map((p) => p.source))).toEqual(new Set(['Imported from refs.csv']));
    // Through the API, as the case's profile tab shows them.
    const listed = (await call('analystA', 'GET', `/api/cases/${caseId}/profiles?pageSize=100`)).json() as { items: Profile[]; count: number };
    expect(listed.count).toBe(20);
    expect(listed.items.map((p) => p.profileId)).not.toContain('BAD-1');
    const marked = (await rows(job.id, 'all')).items;
    expect(marked.filter((r) => r.added).map((r) => r.index)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    // The audit trail records each imported profile as its view shows it (marker values in kit order, names).
    const first = listed.items.find((p) => p.profileId === 'GOOD-0001')!;
    const view = (await call('analystA', 'GET', `/api/profiles/${first.id}`)).json() as { markerValues: unknown[] };
    const trail = (await call('analystA', 'GET', `/api/profiles/${first.id}/audit`)).json() as { items: { action: string; after: { markerValues: unknown[]; profileId: string } }[] };
    const imported = trail.items.find((e) => e.action === 'Imported')!;
    expect(imported.after.profileId).toBe('GOOD-0001');
    expect(view.markerValues.length).toBeGreaterThan(0);
    expect(imported.after.markerValues).toEqual(view.markerValues);
  });

  it('refuses (400) a flagged profile named in include, on the job route and on POST /profiles, and adds nothing', async () => {
    const caseId = await newCase();
    const csv = longTable([...references('INC', 2), { name: 'INC-BAD', markers: { D3S1358: ['15', '16'], NOTAMARKER: ['1', '2'] } }]);
    const old = await upload('analystA', 'include.csv', csv, {}, '/api/profiles/import');
    expect(old.statusCode, old.body).toBe(200);
    const result = old.json() as ProfileImportResult;
    const token = old.headers['approval-token'] as string;
    expect(result.profiles.map((p) => p.profileId)).toEqual(['INC-0001', 'INC-0002', 'INC-BAD']);
    expect(result.profiles[2]!.errors).toEqual(['Marker NOTAMARKER is invalid']);
    const reason = /INC-BAD \(Marker NOTAMARKER is invalid\)/;

    for (const include of [[2], [0, 2], [2, 2, 1]]) {
      const res = await confirm(result.importId, token, { ...assignment(caseId), include });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toMatch(reason);
    }
    const drafts = result.profiles.map((p) => ({ profileId: p.profileId, markerValues: p.markerValues.map((m) => ({ markerId: m.markerId, alleles: m.alleles })) }));
    // The old body: every parsed profile, all of them added when include is absent — the flagged one too.
    for (const include of [undefined, [2], [1, 2]]) {
      const res = await call('analystA', 'POST', '/api/profiles', { ...assignment(caseId), profiles: drafts, ...(include ? { include } : {}) }, { approval: token });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toMatch(reason);
    }
    expect(await caseProfiles(caseId)).toEqual([]);
    // Nothing spent: the import is still waiting, and the good ones can still be added.
    const { job, token: still } = await waitFor(result.importId, ['parsed']);
    expect(job.addedCount).toBe(0);
    expect(still).toBe(token);
    const ok = await call('analystA', 'POST', '/api/profiles', { ...assignment(caseId), profiles: drafts, include: [0, 1] }, { approval: token });
    expect(ok.statusCode, ok.body).toBe(201);
    expect((ok.json() as { items: Profile[] }).items.map((p) => p.profileId)).toEqual(['INC-0001', 'INC-0002']);
  });
});

describe('the approval: one use, one user, one case', () => {
  it('refuses a spent token (used), a token read for another case (case) and another user’s (foreign, or 404 for the job)', async () => {
    const caseA = await newCase();
    const caseB = await newCase();
    const csv = longTable(references('ONCE', 3));
    const old = await upload('analystA', 'once.csv', csv, { caseId: caseA }, '/api/profiles/import');
    expect(old.statusCode, old.body).toBe(200);
    const result = old.json() as ProfileImportResult;
    const token = old.headers['approval-token'] as string;
    expect(result).toMatchObject({ fileName: 'once.csv', importId: expect.any(String), controls: [], errors: [] });
    expect(result.profiles).toHaveLength(3);
    const drafts = result.profiles.map((p) => ({ profileId: p.profileId, markerValues: p.markerValues.map((m) => ({ markerId: m.markerId, alleles: m.alleles })) }));
    const id = result.importId;

    // Read for case A: not for case B.
    expect(refusal(await confirm(id, token, assignment(caseB)))).toBe('case');
    expect(refusal(await call('analystA', 'POST', '/api/profiles', { ...assignment(caseB), profiles: drafts }, { approval: token }))).toBe('case');
    // Another user of the same laboratory: the token is not theirs, and the import is private.
    expect(refusal(await call('analystA2', 'POST', '/api/profiles', { ...assignment(caseA), profiles: drafts }, { approval: token }))).toBe('foreign');
    expect((await confirm(id, token, assignment(caseA), 'analystA2')).statusCode).toBe(404);
    expect((await call('analystA2', 'GET', `/api/profile-imports/${id}`)).statusCode).toBe(404);
    expect((await call('analystA2', 'GET', `/api/profile-imports/${id}/profiles`)).statusCode).toBe(404);
    expect((await call('analystA2', 'DELETE', `/api/profile-imports/${id}`)).statusCode).toBe(404);
    expect((await call('analystA2', 'POST', `/api/profile-imports/${id}/cancel`)).statusCode).toBe(404);
    expect(await caseProfiles(caseB)).toEqual([]);

    // Added once through the old call…
    const added = await call('analystA', 'POST', '/api/profiles', { ...assignment(caseA), profiles: drafts }, { approval: token });
    expect(added.statusCode, added.body).toBe(201);
    expect((added.json() as { count: number }).count).toBe(3);
    // …the same token is spent on both routes, and nothing more is added.
    expect(refusal(await call('analystA', 'POST', '/api/profiles', { ...assignment(caseA), profiles: drafts }, { approval: token }))).toBe('used');
    expect(refusal(await confirm(id, token, assignment(caseA)))).toBe('used');
    const { job, token: reissued } = await waitFor(id, ['added']);
    expect(job.addedCount).toBe(3);
    expect(reissued).toBeUndefined();
    expect(await caseProfiles(caseA)).toHaveLength(3);
  });

  it('binds a token read without a case to the case its first confirmation named, even when that confirmation found problems', async () => {
    const caseA = await newCase();
    const caseB = await newCase();
    const csv = longTable([{ name: 'TRIPLE', markers: { D3S1358: ['14', '15', '16'] } }, ...references('UNBOUND', 2)], 3);
    const { job, token } = await parsed('unbound.csv', csv);
    expect(job.caseId).toBeNull();
    expect((await confirm(job.id, token, assignment(caseA))).statusCode).toBe(202);
    expect((await waitFor(job.id, ['parsed'])).job.problemCount).toBe(1);
    expect(refusal(await confirm(job.id, token, { ...assignment(caseB), exclude: [0] }))).toBe('case');
    expect((await confirm(job.id, token, { ...assignment(caseA), exclude: [0] })).statusCode).toBe(202);
    expect((await waitFor(job.id, ['added'])).job.addedCount).toBe(2);
    expect(await caseProfiles(caseB)).toEqual([]);
  });

  it('lists the user’s own imports, of one case and unfinished only when asked, for the screen to find them again', async () => {
    const caseA = await newCase();
    const { job } = await parsed('listed.csv', longTable(references('LISTED', 2)), { caseId: caseA });
    const mine = (await call('analystA', 'GET', `/api/profile-imports?caseId=${caseA}&open=true`)).json() as { items: ProfileImportJob[] };
    expect(mine.items.map((j) => [j.id, j.state])).toEqual([[job.id, 'parsed']]);
    const theirs = (await call('analystA2', 'GET', `/api/profile-imports?caseId=${caseA}`)).json() as { items: ProfileImportJob[] };
    expect(theirs.items).toEqual([]);
    expect((await call('analystA', 'DELETE', `/api/profile-imports/${job.id}`)).statusCode).toBe(204);
    expect(((await call('analystA', 'GET', `/api/profile-imports?caseId=${caseA}&open=true`)).json() as { items: unknown[] }).items).toEqual([]);
  });

  it('closes refused and empty imports and expired approvals: they are no longer listed as unfinished (issue 30)', async () => {
    const caseA = await newCase();
    const open = async () => ((await call('analystA', 'GET', `/api/profile-imports?caseId=${caseA}&open=true`)).json() as { items: ProfileImportJob[] }).items.map((j) => j.fileName);
    // Refused whole: a frequency table is no profile file.
    await parsed('frequencies.csv', 'Allele,D3S1358\n15,0.25\n16,0.75\n', { caseId: caseA });
    // Every profile has an error: nothing to add.
    await parsed('all-errors.csv', longTable([{ name: 'BAD-1', markers: { D99S999: ['12', '13'] } }]), { caseId: caseA });
    const { job: good } = await parsed('good.csv', longTable(references('GOOD', 1)), { caseId: caseA });
    expect(await open()).toEqual(['good.csv']);
    // Past its approval the import cannot be confirmed from the list (it has no file to read again).
    clock.current = new Date(new Date(good.approvalExpiresAt!).getTime() + 1000);
    try {
      expect(await open()).toEqual([]);
    } finally {
      clock.current = new Date('2026-11-22T10:00:00Z');
    }
  });

  it('spends the token on the job route too: a second confirmation is refused as used', async () => {
    const caseId = await newCase();
    const { job, token } = await parsed('twice.csv', longTable(references('TWICE', 2)));
    expect((await confirm(job.id, token, assignment(caseId))).statusCode).toBe(202);
    // Claimed before the 202: a second confirmation finds the approval spent, even before the add ends.
    expect(refusal(await confirm(job.id, token, assignment(caseId)))).toBe('used');
    await waitFor(job.id, ['added']);
    expect(refusal(await confirm(job.id, token, assignment(caseId)))).toBe('used');
    expect(await caseProfiles(caseId)).toHaveLength(2);
  });

  it('lets only Profiles Add upload or read an import', async () => {
    expect((await upload('readerA', 'r.csv', longTable(references('R', 1)))).statusCode).toBe(403);
  });
});

describe('checking the chosen profiles against the assignment', () => {
  const file = () =>
    longTable(
      [
        ...references('CHK', 4),
        { name: 'CHK-TRI', markers: { D3S1358: ['15', '16', '17'], vWA: ['14', '17'] } },
        ...references('CHK-B', 2),
      ],
      10,
    );

  it('sends the import back to its preview when a reference has three alleles at a marker; the approval stays valid, and leaving it out adds the rest', async () => {
    const caseId = await newCase();
    const { job, token } = await parsed('offenders.csv', file());
    expect(job).toMatchObject({ profileCount: 7, flaggedCount: 0 });

    expect((await confirm(job.id, token, assignment(caseId, 'Convicted Offender'))).statusCode).toBe(202);
    const { job: back, token: again } = await waitFor(job.id, ['parsed', 'added', 'interrupted']);
    expect(back).toMatchObject({ state: 'parsed', problemCount: 1, addedCount: 0 });
    expect(back.message).toMatch(/^1 of the chosen profiles cannot be added; nothing was added/);
    // Still confirmable: the screen is offered a token again (now bound to the case the add named).
    expect(again).toMatch(/^v2\./);
    const problems = await rows(job.id, 'problems');
    expect(problems.count).toBe(1);
    expect(problems.items.map((r) => r.profileId)).toEqual(['CHK-TRI']);
    // The reason once, as the preview lists it beside the profile.
    expect(problems.items[0]!.problems).toEqual(['D3S1358 has 3 alleles (15, 16, 17); a single-source profile has 1 or 2 per marker']);
    expect(await caseProfiles(caseId)).toEqual([]);

    const tri = problems.items[0]!.index;
    expect((await confirm(job.id, token, { ...assignment(caseId, 'Convicted Offender'), exclude: [tri] })).statusCode).toBe(202);
    const { job: done } = await waitFor(job.id, ['added', 'parsed', 'interrupted']);
    expect(done).toMatchObject({ state: 'added', addedCount: 6, chosenCount: 6, problemCount: 0 });
    expect((await rows(job.id, 'problems')).items).toEqual([]);
    const names = (await caseProfiles(caseId)).map((p) => p.profileId);
    expect(names).toHaveLength(6);
    expect(names).not.toContain('CHK-TRI');
  });

  it('adds the same file whole as a Forensic Mixture, and a mixture with ten alleles at a marker', async () => {
    const caseId = await newCase();
    const { job, token } = await parsed('offenders.csv', file());
    expect((await confirm(job.id, token, assignment(caseId, 'Forensic Mixture'))).statusCode).toBe(202);
    expect((await waitFor(job.id, ['added', 'parsed', 'interrupted'])).job).toMatchObject({ state: 'added', addedCount: 7, problemCount: 0 });
    expect(await caseProfiles(caseId)).toHaveLength(7);

    const ten = Array.from({ length: 10 }, (_, i) => String(10 + i));
    const mix = await parsed('mixture.csv', longTable([{ name: 'MIX-10', markers: { D3S1358: ten, vWA: ['14', '17'] } }], 10));
    expect(mix.job.flaggedCount).toBe(0);
    expect((await confirm(mix.job.id, mix.token, assignment(caseId, 'Forensic Mixture'))).statusCode).toBe(202);
    expect((await waitFor(mix.job.id, ['added', 'parsed', 'interrupted'])).job).toMatchObject({ state: 'added', addedCount: 1 });
    const [stored] = await caseProfiles(caseId).then((ps) => ps.filter((p) => p.profileId === 'MIX-10'));
    const withMarkers = (await call('analystA', 'GET', `/api/profiles/${stored!.id}`)).json() as { markerValues: { marker: string; alleles: string[] }[] };
    expect(withMarkers.markerValues.find((m) => m.marker === 'D3S1358')!.alleles).toEqual(ten);
  });

  it('names a profile already in the case, one chosen twice and a broken rule, each reason once', async () => {
    const caseId = await newCase();
    const first = await parsed('first.csv', longTable(references('DUP', 2)));
    expect((await confirm(first.job.id, first.token, assignment(caseId))).statusCode).toBe(202);
    await waitFor(first.job.id, ['added']);
    const file = longTable(
      [
        ...references('DUP', 1),
        { name: 'Twin-1', markers: { D3S1358: ['15', '16', '17'] } },
        { name: 'TWIN-1', markers: { D3S1358: ['15', '16'] } },
        { name: 'NEW-1', markers: { D3S1358: ['15', '16'] } },
      ],
      3,
    );
    const again = await parsed('again.csv', file);
    expect(again.job.flaggedCount).toBe(0);
    expect((await confirm(again.job.id, again.token, assignment(caseId, 'Convicted Offender'))).statusCode).toBe(202);
    const { job } = await waitFor(again.job.id, ['parsed', 'added', 'interrupted']);
    expect(job).toMatchObject({ state: 'parsed', problemCount: 3 });
    const problems = (await rows(again.job.id, 'problems')).items;
    const caseNumber = (await call('analystA', 'GET', `/api/cases/${caseId}`)).json().caseNumber as string;
    expect(problems.map((r) => [r.profileId, [...r.problems].sort()])).toEqual([
      ['DUP-0001', [`Case ${caseNumber} already has profile DUP-0001`]],
      ['Twin-1', ['D3S1358 has 3 alleles (15, 16, 17); a single-source profile has 1 or 2 per marker', 'Twin-1 is chosen twice: also row 3']],
      ['TWIN-1', ['TWIN-1 is chosen twice: also row 2']],
    ]);
    expect((await caseProfiles(caseId)).map((p) => p.profileId).sort()).toEqual(['DUP-0001', 'DUP-0002']);
  });
});

describe('whole batches', () => {
  const big = (prefix: string) => longTable(references(prefix, 1200));

  it('cancels a 1,200-profile add right after the 202: whole batches, the job says how many', async () => {
    const caseId = await newCase();
    const { job, token } = await parsed('batch.csv', big('BIG'));
    expect(job.profileCount).toBe(1200);
    expect((await confirm(job.id, token, assignment(caseId))).statusCode).toBe(202);
    const cancel = await call('analystA', 'POST', `/api/profile-imports/${job.id}/cancel`);
    expect([200, 409]).toContain(cancel.statusCode);
    const { job: end } = await waitFor(job.id, ['cancelled', 'added', 'interrupted']);
    const inCase = await caseProfiles(caseId);
    expect(['cancelled', 'added']).toContain(end.state);
    if (end.state === 'cancelled') {
      expect(end.addedCount % importBatchSize(t.database.kind)).toBe(0);
      expect(end.message).toBe(`Cancelled: ${end.addedCount} profiles were added (whole batches); the rest were not.`);
    } else expect(end.addedCount).toBe(1200);
    expect(inCase).toHaveLength(end.addedCount);
    expect(new Set(inCase.map((p) => p.profileId)).size).toBe(inCase.length);
  });

  it('adds through the route on the embedded database in batches of 100, one transaction each (a health probe waits behind one batch at most)', async () => {
    expect(t.database.kind).toBe('pglite');
    const caseId = await newCase();
    const { job, token } = await parsed('small-batches.csv', longTable(references('SMALL', 250)));
    expect((await confirm(job.id, token, assignment(caseId))).statusCode).toBe(202);
    const { job: end } = await waitFor(job.id, ['added', 'interrupted']);
    expect(end).toMatchObject({ state: 'added', addedCount: 250 });
    // xmin names the transaction that wrote each row: one per batch.
    const batches = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from profiles where case_id = ${caseId} group by xmin::text`));
    expect(batches.map((r) => r.n).sort((a, b) => b - a)).toEqual([PGLITE_IMPORT_BATCH_SIZE, PGLITE_IMPORT_BATCH_SIZE, 50]);
  });

  it('stops after the batch during which the cancel came: exactly one batch added, the rest not, and no resume', async () => {
    const caseId = await newCase();
    const { job } = await parsed('batch.csv', big('CUT'));
    // Deterministic: the cancel arrives while the first batch is being written.
    const { ctx } = await claim(job.id, caseId, afterTransaction(db, 1, () => expect(cancelImportWork(job.id)).toBe(true)));
    const outcome = await runConfirm(ctx, IMPORT_BATCH_SIZE);
    expect(outcome.kind).toBe('cancelled');
    const { job: end } = await waitFor(job.id, ['cancelled']);
    expect(end).toMatchObject({ addedCount: IMPORT_BATCH_SIZE, chosenCount: 1200, message: `Cancelled: ${IMPORT_BATCH_SIZE} profiles were added (whole batches); the rest were not.` });
    const inCase = await caseProfiles(caseId);
    expect(inCase.map((p) => p.profileId).sort()).toEqual(references('CUT', IMPORT_BATCH_SIZE).map((r) => r.name));
    const added = await db.select().from(profileImportRows).where(and(eq(profileImportRows.importId, job.id), eq(profileImportRows.added, true)));
    expect(added).toHaveLength(IMPORT_BATCH_SIZE);
    // Only an interrupted import resumes; a cancelled one is discarded (its profiles stay in the case).
    expect((await call('analystA', 'POST', `/api/profile-imports/${job.id}/resume`)).statusCode).toBe(409);
    expect((await call('analystA', 'POST', `/api/profile-imports/${job.id}/cancel`)).statusCode).toBe(409);
    expect((await call('analystA', 'DELETE', `/api/profile-imports/${job.id}`)).statusCode).toBe(204);
    expect(await caseProfiles(caseId)).toHaveLength(IMPORT_BATCH_SIZE);
  });
});

describe('after a crash', () => {
  it('marks an add stopped between batches interrupted, and resume adds every chosen profile exactly once, audited', async () => {
    const caseId = await newCase();
    const { job } = await parsed('crash.csv', longTable(references('CRASH', 600)));
    const skipped = 3;
    // The server "dies" once the first batch has committed: nothing after it runs, the job stays `adding`.
    const stop = new AbortController();
    const { ctx, chosen } = await claim(job.id, caseId, afterTransaction(db, 1, () => stop.abort()), { exclude: [skipped] });
    expect(chosen).toBe(599);
    expect(await checkChosen(ctx)).toBe(0);
    await setJob(db, job.id, { state: 'adding', done: 0, total: chosen });
    ctx.signal = stop.signal;
    expect(await addChosen(ctx, IMPORT_BATCH_SIZE)).toHaveLength(IMPORT_BATCH_SIZE);
    expect((await jobRow(job.id)).state).toBe('adding');

    // A parse that was running when the server stopped.
    const parsing = await createImport(db, { userId: userIds.analystA, caseId: null, organizationId: null, fileName: 'lost.csv', fileBytes: 10 });
    // Still fresh: a job touched within the last two minutes may be running in another process.
    expect(await recoverImports(db, new Date(Date.now() + 30_000))).toBe(0);
    expect(await recoverImports(db, new Date(Date.now() + 3 * 60_000))).toBe(2);

    const { job: interrupted, token } = await waitFor(job.id, ['interrupted']);
    expect(interrupted).toMatchObject({ addedCount: IMPORT_BATCH_SIZE, chosenCount: 599 });
    expect(interrupted.message).toMatch(/server stopped while adding/);
    expect(token).toBeUndefined();
    const { job: failed } = await waitFor(parsing.id, ['failed']);
    expect(failed.message).toBe('The server stopped while reading the file. Upload it again.');
    expect((await call('analystA', 'POST', `/api/profile-imports/${parsing.id}/resume`)).statusCode).toBe(409);

    const resumed = await call('analystA', 'POST', `/api/profile-imports/${job.id}/resume`);
    expect(resumed.statusCode, resumed.body).toBe(202);
    const { job: done } = await waitFor(job.id, ['added', 'interrupted', 'cancelled']);
    expect(done).toMatchObject({ state: 'added', addedCount: 599, message: '' });

    const inCase = await caseProfiles(caseId);
    const expected = references('CRASH', 600)
      .map((r) => r.name)
      .filter((_, i) => i !== skipped);
    expect(inCase.map((p) => p.profileId).sort()).toEqual(expected);
    const imported = await db
      .select({ entityId: auditLog.entityId })
      .from(auditLog)
      .where(and(eq(auditLog.action, 'Imported'), inArray(auditLog.entityId, inCase.map((p) => p.id))));
    expect(imported).toHaveLength(599);
    expect(new Set(imported.map((a) => a.entityId)).size).toBe(599);
    expect(await verifyAuditChain(db)).toMatchObject({ brokenAt: null });
    expect((await call('analystA', 'POST', `/api/profile-imports/${job.id}/resume`)).statusCode).toBe(409);
  });
});

describe('other requests during an upload and its parse (issue 29)', () => {
  it('reads the uploaded file chunk by chunk: the request thread never joins the whole file in one Buffer.concat', async () => {
    const csv = longTable(references('JOIN', 1000));
    const body = await multipartBody({}, { name: 'joined.csv', bytes: csv });
    const joined: number[] = [];
    const realConcat = Buffer.concat.bind(Buffer);
    const concat = vi.spyOn(Buffer, 'concat').mockImplementation((list, totalLength) => {
      const out = realConcat(list, totalLength);
      joined.push(out.length);
      return out;
    });
    try {
      const res = await t.app.inject({ method: 'POST', url: '/api/profile-imports', payload: body.payload, headers: { ...body.headers, authorization: `Bearer ${tokens.analystA}` } });
      expect(res.statusCode, res.body).toBe(202);
      const { job } = await waitFor((res.json() as ProfileImportJob).id, ['parsed', 'failed']);
      expect(job).toMatchObject({ state: 'parsed', profileCount: 1000 });
    } finally {
      concat.mockRestore();
    }
    expect(joined.filter((n) => n >= csv.length)).toEqual([]);
  });

  it('stores the parsed rows as background work, read one chunk at a time from a spool file: on the embedded database every request’s statement goes before the next chunk', async () => {
    const user = await principal('analystA');
    const job = await createImport(db, { userId: user.id, caseId: null, organizationId: orgA, fileName: 'chunks.csv', fileBytes: 0 });
    const background: boolean[] = [];
    const watched = new Proxy(db, {
      get(obj, prop) {
        const value = Reflect.get(obj, prop, obj) as unknown;
        if (prop === 'execute') background.push(isBackgroundWork());
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(obj) : value;
      },
    });
    const { outcome, row } = await runParse(watched, job, { bytes: new Uint8Array(Buffer.from(longTable(references('CHUNK', 450)))) }, { withBody: false, approvalExpiresAt: () => new Date(clock.now().getTime() + 3_600_000) });
    expect(row).toMatchObject({ state: 'parsed', profileCount: 450 });
    // One statement per chunk of 100 rows, each as background work.
    expect(background).toEqual([true, true, true, true, true]);
    // The rows came through a spool file, a chunk at a time, not in the worker's answer; the file is gone.
    const bytesIn = (v: unknown): boolean => ArrayBuffer.isView(v) || (Array.isArray(v) && v.some(bytesIn));
    expect(Object.entries(outcome!).filter(([, v]) => bytesIn(v))).toEqual([]);
    expect(outcome!.rows.lengths).toHaveLength(5);
    expect(existsSync(outcome!.rows.file)).toBe(false);
    const stored = await db.select({ index: profileImportRows.index, profileId: profileImportRows.profileId }).from(profileImportRows).where(eq(profileImportRows.importId, job.id));
    expect(stored.sort((a, b) => a.index - b.index).map((r) => r.profileId)).toEqual(references('CHUNK', 450).map((r) => r.name));
  });
});

describe('empty files and discarding', () => {
  it('refuses a 0-byte file by name, on both upload routes', async () => {
    for (const url of ['/api/profile-imports', '/api/profiles/import']) {
      const res = await upload('analystA', 'x.csv', Buffer.alloc(0), {}, url);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toMatch(/^The file x\.csv is empty \(0 bytes\)/);
    }
  });

  it('leaves no upload file behind: refused uploads (over the limit too), a parsed import and a synchronous parse', async () => {
    const before = process.env.TMPDIR;
    const dir = mkdtempSync(path.join(tmpdir(), 'locus-spool-test-'));
    process.env.TMPDIR = dir;
    try {
      expect((await upload('analystA', 'x.csv', Buffer.alloc(0))).statusCode).toBe(400);
      expect((await upload('analystA', 'y.csv', longTable(references('SPOOL', 2)), { caseId: 'not-a-guid' })).statusCode).toBe(400);
      // Over the import limit: busboy stops mid-file, after part of it was written to the spool file.
      const over = await upload('analystA', 'huge.csv', Buffer.alloc(PROFILE_IMPORT_LIMIT_BYTES + 1024, 0x41));
      expect(over.statusCode).toBe(413);
      await parsed('spool.csv', longTable(references('SPOOLED', 3)));
      expect((await upload('analystA', 'z.csv', longTable(references('SYNC', 2)), {}, '/api/profiles/import')).statusCode).toBe(200);
      expect(readdirSync(dir).filter((f) => f.startsWith('locus-'))).toEqual([]);
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('discards a parsed import (its rows go, then 404), and refuses while it runs', async () => {
    const { job } = await parsed('discard.csv', longTable(references('DISC', 3)));
    expect(await db.$count(profileImportRows, eq(profileImportRows.importId, job.id))).toBe(3);
    expect((await call('analystA', 'DELETE', `/api/profile-imports/${job.id}`)).statusCode).toBe(204);
    expect(await db.$count(profileImportRows, eq(profileImportRows.importId, job.id))).toBe(0);
    expect((await call('analystA', 'GET', `/api/profile-imports/${job.id}`)).statusCode).toBe(404);
    expect((await call('analystA', 'DELETE', `/api/profile-imports/${job.id}`)).statusCode).toBe(404);

    // A job still reading its file (as one is between the upload and the end of its parse).
    const running = await createImport(db, { userId: userIds.analystA, caseId: null, organizationId: null, fileName: 'busy.csv', fileBytes: 10 });
    const refused = await call('analystA', 'DELETE', `/api/profile-imports/${running.id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error).toBe('Cancel the import before discarding it.');
    // Running in no process here: the cancel says so rather than pretending.
    expect((await call('analystA', 'POST', `/api/profile-imports/${running.id}/cancel`)).statusCode).toBe(409);
    await setJob(db, running.id, { state: 'failed' });
    expect((await call('analystA', 'DELETE', `/api/profile-imports/${running.id}`)).statusCode).toBe(204);
  });
});

describe("a case's names while an import adds to it (issue 29: the case's profiles read once, not for every batch)", () => {
  /** A profile put in the case by another way than the import (a colleague's add, a replication), as SQL. */
  const addByHand = (caseId: string, name: string) =>
    db.execute(sql`insert into profiles (profile_id, case_id, organization_id, kind, chemistry_id, sample_type, entered_by)
      values (${name}, ${caseId}, ${orgA}, 'Autosomal', ${globalFiler}, 'Reference', ${userIds.analystA})`);
  const addRows = async (prefix: string, caseId: string, on: (ctx: Awaited<ReturnType<typeof claim>>['ctx']) => Promise<void> = async () => undefined, hook?: (db: Db) => Db) => {
    const { job } = await parsed(`${prefix}.csv`, longTable(references(prefix, 600)));
    const { ctx } = await claim(job.id, caseId, hook ? hook(db) : db);
    expect(await checkChosen(ctx)).toBe(0);
    await on(ctx);
    return ctx;
  };

  it('stops at the batch holding a name a colleague added to the case after the first batch; the first batch stays', async () => {
    const caseId = await newCase();
    const ctx = await addRows('LATE', caseId, undefined, (d) => afterTransaction(d, 1, () => addByHand(caseId, 'late-0300')));
    await expect(addChosen(ctx, IMPORT_BATCH_SIZE)).rejects.toThrow(/already has profile late-0300 \(added meanwhile\); this batch of 250 was not added/);
    const names = (await caseProfiles(caseId)).map((p) => p.profileId);
    expect(names).toHaveLength(IMPORT_BATCH_SIZE + 1);
    expect(names).toContain('late-0300');
  });

  it('stops at the first batch when the name came in between the check and the add', async () => {
    const caseId = await newCase();
    const ctx = await addRows('EARLY', caseId, () => addByHand(caseId, 'EARLY-0001').then(() => undefined));
    await expect(addChosen(ctx, IMPORT_BATCH_SIZE)).rejects.toThrow(/already has profile EARLY-0001 \(added meanwhile\); this batch of 250 was not added/);
    expect(await caseProfiles(caseId)).toHaveLength(1);
  });

  it("does not look the batches' names up among the case's profiles while nobody else has changed them: a row written with the triggers off goes unseen", async () => {
    // Only what the names version counts is looked at: a profile written past the triggers (session_replication_role
    // replica, as no route does) is not found by a later batch, which proves the batch did not read the case's profiles.
    const caseId = await newCase();
    const ctx = await addRows('TRUST', caseId, undefined, (d) =>
      afterTransaction(d, 1, () =>
        db.transaction(async (tx) => {
          await tx.execute(sql`set local session_replication_role = replica`);
          await (tx as unknown as Db).execute(sql`insert into profiles (profile_id, case_id, organization_id, kind, chemistry_id, sample_type) values ('trust-0400', ${caseId}, ${orgA}, 'Autosomal', ${globalFiler}, 'Reference')`);
        }),
      ),
    );
    expect(await addChosen(ctx, IMPORT_BATCH_SIZE)).toHaveLength(600);
    expect(await caseProfiles(caseId)).toHaveLength(601);
  });

  it('lets the event loop turn every 25 rows while it checks and adds (a health probe waits for a stretch, not a page)', async () => {
    const caseId = await newCase();
    const { job } = await parsed('turns.csv', longTable(references('TURN', 600)));
    const { ctx } = await claim(job.id, caseId, db);
    vi.mocked(yieldToEventLoop).mockClear();
    expect(await checkChosen(ctx)).toBe(0);
    // Pages of 250, 250 and 100: turns after every 25 rows of each.
    expect(vi.mocked(yieldToEventLoop).mock.calls.length).toBeGreaterThanOrEqual(9 + 9 + 3);
    vi.mocked(yieldToEventLoop).mockClear();
    expect(await addChosen(ctx, IMPORT_BATCH_SIZE)).toHaveLength(600);
    // Batches of 250, 250 and 100, each checked again and hashed for the audit trail: as many turns again, twice.
    expect(vi.mocked(yieldToEventLoop).mock.calls.length).toBeGreaterThanOrEqual(2 * (9 + 9 + 3));
  });
});
