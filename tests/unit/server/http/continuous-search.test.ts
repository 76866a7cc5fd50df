/**
 * Issue 31 "Quantitative database search": POST /api/mixture-search takes model "continuous" (a stored stain with
 * peak heights): its contributors rank first with the exact LR of their own fit beside the scan's.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fbi2015Population, profileGenerator } from '../../../../bench/synthetic-profiles';
import type { SampleType } from '../../../../core/schemas/profiles';
import { analyses, caseTypes, cases, chemistries, markers, profiles } from '../../../../server/db/schema';
import { seedReferenceData } from '../../../../server/db/seed/reference-data';
import { writeMarkerValues } from '../../../../server/http/profiles/marker-values';
import { writeReplicates } from '../../../../server/http/profiles/replicate-values';
import type { Genotype } from '../../../../server/genetics/types';
import { createTestApp, type TestApp } from '../../../helpers/app';
import { uploadFbiPopulation } from '../../../helpers/calculator-fixtures';
import { createAccessGroup, createOrganization, createUser } from '../../../helpers/factories';
import { searchesDone } from '../../../helpers/searches-done';

const caucasian = fbi2015Population('Caucasian');
const generate = profileGenerator(caucasian, 3117);
const MARKERS = ['D3S1358', 'vWA', 'FGA', 'D8S1179', 'D21S11', 'D18S51', 'D5S818', 'D13S317', 'D7S820', 'TH01'];
const contributors = [generate(), generate()];
let n = 0;
// Two contributors at Mx 0.7 and 0.3, μ 1500 RFU, a deterministic ±15% spread.
const peaks = MARKERS.map((marker) => {
  const heights = new Map<string, number>();
  contributors.forEach((c, k) => {
    for (const allele of c.get(marker)!) heights.set(allele, (heights.get(allele) ?? 0) + 1500 * [0.7, 0.3][k]!);
  });
  return { marker, peaks: [...heights].sort(([a], [b]) => Number(a) - Number(b)).map(([allele, h]) => ({ allele, height: Math.round(h * (1 + 0.15 * Math.sin(++n))), size: null })) };
});

let t: TestApp;
let orgId = '';
const tokens = {} as Record<'admin' | 'a', string>;
let chemistryId = '';
let populationId = '';
const markerIds = new Map<string, string>();
const markerCodes = new Map<string, number>();
const ids = new Map<string, string>();

async function profile(caseId: string, name: string, sampleType: SampleType, genotypes: ReadonlyMap<string, Genotype>, withHeights = false) {
  const db = t.database.db;
  const [row] = await db.insert(profiles).values({ profileId: name, caseId, organizationId: orgId, kind: 'Autosomal', chemistryId, sampleType, status: 'pending' }).returning();
  const markerValues = [...genotypes].map(([m, alleles]) => ({ markerId: markerIds.get(m)!, alleles: [...alleles] }));
  await writeMarkerValues(db, row!.id, markerValues.map((v, position) => ({ ...v, position })));
  if (withHeights) await writeReplicates(db, row!.id, [{ name: 'run 1', markers: peaks.map((m) => ({ markerId: markerIds.get(m.marker)!, peaks: m.peaks })) }], new Map([...markerIds].map(([name, id]) => [id, markerCodes.get(name)!])));
  ids.set(name, row!.id);
  const approved = await t.app.inject({ method: 'POST', url: `/api/profiles/${row!.id}/approve`, headers: { authorization: `Bearer ${tokens.admin}` }, payload: { markerValues, comments: '', version: row!.version } });
  expect(approved.statusCode, approved.body).toBe(200);
}

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  orgId = (await createOrganization(db, 'Oslo Lab')).id;
  await db.transaction((tx) => seedReferenceData(tx, { shareWith: [] }));
  const admin = await createAccessGroup(db, { isAdmin: true });
  const analyst = await createAccessGroup(db, { grants: { Cases: ['Read'], Profiles: ['Read'], Hits: ['Read'], Analyses: ['Read'], Populations: ['Read'] } });
  tokens.admin = t.verifier.issue((await createUser(db, { scope: 'All', accessGroupId: admin.id })).id);
  tokens.a = t.verifier.issue((await createUser(db, { accessGroupId: analyst.id, organizationIds: [orgId] })).id);
  chemistryId = (await db.select().from(chemistries).where(eq(chemistries.name, 'GlobalFiler')))[0]!.id;
  for (const m of await db.select().from(markers)) {
    markerIds.set(m.name, m.id);
    markerCodes.set(m.name, m.code);
  }
  populationId = await uploadFbiPopulation(t, tokens.admin, [orgId], 'Caucasian');
  const [caseType] = await db.select().from(caseTypes).limit(1);
  const caseId = (await db.insert(cases).values({ caseNumber: 'CONT-A', caseTypeId: caseType!.id, organizationId: orgId }).returning())[0]!.id;
  for (const [i, c] of contributors.entries()) await profile(caseId, `CONTRIBUTOR-${i}`, 'Convicted Offender', c);
  for (let i = 0; i < 30; i++) await profile(caseId, `OFFENDER-${i}`, 'Convicted Offender', generate());
  await searchesDone(t.app, tokens.admin);
  await profile(caseId, 'STAIN', 'Forensic Mixture', new Map(peaks.map((m) => [m.marker, m.peaks.map((p) => p.allele)])), true);
  await searchesDone(t.app, tokens.admin);
}, 300_000);
afterAll(() => t.close());

describe('POST /api/mixture-search with model continuous', () => {
  const call = <T>(payload: object) => t.app.inject({ method: 'POST', url: '/api/mixture-search', headers: { authorization: `Bearer ${tokens.a}` }, payload }).then((res) => ({ status: res.statusCode, body: res.json() as T, raw: res.body }));
  const analysisId = async () => (await t.database.db.select().from(analyses).where(eq(analyses.name, 'Mixture, 2 contributors')))[0]!.id;

  it('ranks the contributors first with the exact LR, the scan\'s and Hd\'s fit; refuses a stain without heights', async () => {
    type Answer = { model: string; candidates: { sampleName: string; results: { lr: number; pValue: number; continuous: { scanLog10Lr: number; log10Lr: number; position: number } }[] }[]; populations: { continuousHd: { parameters: { mx: number[] } } }[] };
    const res = await call<Answer>({ organizationId: orgId, analysisId: await analysisId(), replicates: [{ profileId: ids.get('STAIN') }], populationIds: [populationId], limit: 4, model: 'continuous', continuous: { starts: 2 } });
    expect(res.status, res.raw).toBe(200);
    expect(res.body.model).toBe('continuous');
    expect(res.body.candidates.slice(0, 2).map((c) => c.sampleName).sort()).toEqual(['CONTRIBUTOR-0', 'CONTRIBUTOR-1']);
    expect(res.body.populations[0]!.continuousHd!.parameters.mx[0]!).toBeCloseTo(0.7, 1);
    for (const c of res.body.candidates.slice(0, 2)) {
      const r = c.results[0]!;
      expect(r.lr).toBeCloseTo(10 ** r.continuous.log10Lr, 0);
      expect(r.continuous.log10Lr).toBeGreaterThan(res.body.candidates[2]!.results[0]!.continuous.log10Lr);
      expect(r.pValue).toBeLessThan(1e-4);
    }
    const without = await call<{ error: string }>({ organizationId: orgId, analysisId: await analysisId(), replicates: [{ profileId: ids.get('CONTRIBUTOR-0') }], populationIds: [populationId], model: 'continuous' });
    expect(without.status).toBe(400);
    expect(without.body.error).toMatch(/has no peak heights/);
  });

  it('weighs degradation with the kit\'s fragment sizes: an unknown\'s allele the stain does not show is sized from the kit', async () => {
    type Answer = { candidates: { sampleName: string }[]; populations: { continuousHd: { parameters: { beta: number } } | null; notEvaluated: string | null }[] };
    const model = { degradation: true, backwardStutter: false, forwardStutter: false };
    const res = await call<Answer>({ organizationId: orgId, analysisId: await analysisId(), replicates: [{ profileId: ids.get('STAIN') }], populationIds: [populationId], limit: 2, model: 'continuous', continuous: { starts: 1, model } });
    // Before, the search passed no sizes: "degradation needs the fragment size of allele …" for the first allele unseen.
    expect(res.status, res.raw).toBe(200);
    expect(res.body.populations[0]!.notEvaluated).toBeNull();
    expect(res.body.populations[0]!.continuousHd!.parameters.beta).toBeGreaterThan(0);
    expect(res.body.candidates.map((c) => c.sampleName).sort()).toEqual(['CONTRIBUTOR-0', 'CONTRIBUTOR-1']);
  });
});
