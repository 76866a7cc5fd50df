import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { fbi2015Population, profileGenerator, seededRandom } from '../../../bench/synthetic-profiles';
import type { Family, FamilyInput, FamilySearchAnswer } from '../../../core/schemas/families';
import type { SampleType } from '../../../core/schemas/profiles';
import { analyses, caseTypes, cases, chemistries, markers, profiles } from '../../../server/db/schema';
import { seedReferenceData } from '../../../server/db/seed/reference-data';
import type { Genotype } from '../../../server/genetics/types';
import { writeMarkerValues } from '../../../server/http/profiles/marker-values';
import { uploadFbiPopulation } from '../../helpers/calculator-fixtures';
import { createAccessGroup, createOrganization, createUser } from '../../helpers/factories';
import { createTestApp, type TestApp } from '../../helpers/app';
import { searchesDone } from '../../helpers/searches-done';

/** A missing-person case of Oslo Lab: the mother and a full sister typed and approved, the missing son's remains among others. */
export interface FamilyWorld {
  t: TestApp;
  orgId: string;
  caseId: string;
  populationId: string;
  /** 'Mother and full sister' of the seeded Missing persons group. */
  analysisId: string;
  /** Profile ids by sample name: MOTHER, SISTER (approved), AUNT (pending), REMAINS-TRUE and REMAINS-0… in a remains case. */
  ids: Map<string, string>;
  tokens: { admin: string; analyst: string; reader: string };
  /** A family added through the API as the analyst. */
  addFamily(overrides?: Partial<FamilyInput>): Promise<Family>;
  activate(family: Family): Promise<FamilySearchAnswer>;
}

const caucasian = fbi2015Population('Caucasian');

/**
 * `remains` unrelated remains besides the missing son's (REMAINS-TRUE); with `mutant`, REMAINS-MUTANT too: another son
 * whose maternal allele at D3S1358 moved one step, so that marker needs a mutation.
 */
export async function familyWorld({ remains = 6, mutant = false } = {}): Promise<FamilyWorld> {
  const random = seededRandom(1616);
  const pick = (g: Genotype) => g[random() < 0.5 ? 0 : g.length - 1]!;
  const childOf = (father: ReadonlyMap<string, Genotype>, mother: ReadonlyMap<string, Genotype>) =>
    new Map(
      [...father].map(([marker, g]) => {
        const pair = [pick(g), pick(mother.get(marker)!)].sort((a, b) => Number(a) - Number(b));
        return [marker, pair[0] === pair[1] ? [pair[0]!] : pair] as [string, Genotype];
      }),
    );
  const generate = profileGenerator(caucasian, 160);
  const [father, mother] = [generate(), generate()];

  const t = await createTestApp();
  const db = t.database.db;
  const orgId = (await createOrganization(db, 'Oslo Lab')).id;
  await db.transaction((tx) => seedReferenceData(tx, { shareWith: [orgId] }));
  const as = async (grants: Parameters<typeof createAccessGroup>[1]) => t.verifier.issue((await createUser(db, { accessGroupId: (await createAccessGroup(db, grants)).id, organizationIds: [orgId] })).id);
  const tokens = {
    admin: t.verifier.issue((await createUser(db, { scope: 'All', accessGroupId: (await createAccessGroup(db, { isAdmin: true })).id })).id),
    analyst: await as({ grants: { Cases: ['Read', 'Edit'], Profiles: ['Read'], Hits: ['Read', 'Publish'], Analyses: ['Read'], Populations: ['Read'] } }),
    reader: await as({ grants: { Cases: ['Read'], Profiles: ['Read'], Hits: ['Read'] } }),
  };
  const call = <T>(token: string, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) }).then((res) => {
      expect(res.statusCode, res.body).toBeLessThan(300);
      return res.json() as T;
    });

  const chemistryId = (await db.select().from(chemistries).where(eq(chemistries.name, 'GlobalFiler')))[0]!.id;
  const markerIds = new Map((await db.select().from(markers)).map((m) => [m.name, m.id]));
  const populationId = await uploadFbiPopulation(t, tokens.admin, [orgId], 'Caucasian');
  const analysisId = (await db.select().from(analyses).where(eq(analyses.name, 'Mother and full sister')))[0]!.id;
  const [caseType] = await db.select().from(caseTypes).limit(1);
  const newCase = async (caseNumber: string) => (await db.insert(cases).values({ caseNumber, caseTypeId: caseType!.id, organizationId: orgId }).returning())[0]!.id;
  const caseId = await newCase('MP-2026-7');
  const remainsCase = await newCase('UHR-2026-1');

  const ids = new Map<string, string>();
  /** Entered pending, then (unless `pending`) approved through the route, so the matcher indexes it. */
  const profile = async (inCase: string, name: string, sampleType: SampleType, genotypes: ReadonlyMap<string, Genotype>, pending = false) => {
    const [row] = await db.insert(profiles).values({ profileId: name, caseId: inCase, organizationId: orgId, kind: 'Autosomal', chemistryId, sampleType, status: 'pending' }).returning();
    const markerValues = [...genotypes].map(([m, alleles]) => ({ markerId: markerIds.get(m)!, alleles: [...alleles] }));
    await writeMarkerValues(db, row!.id, markerValues.map((v, position) => ({ ...v, position })));
    ids.set(name, row!.id);
    if (!pending) await call(tokens.admin, 'POST', `/api/profiles/${row!.id}/approve`, { markerValues, comments: '', version: row!.version });
  };
  await profile(caseId, 'MOTHER', 'Biological Mother', mother);
  await profile(caseId, 'SISTER', 'Biological Sibling', childOf(father, mother));
  await profile(caseId, 'AUNT', 'Reference', generate(), true);
  await profile(remainsCase, 'REMAINS-TRUE', 'Unidentified Human (Remains)', childOf(father, mother));
  if (mutant) {
    const son = childOf(father, mother);
    const maternal = mother.get('D3S1358')!;
    const moved = [Number(maternal[0]) + 1, Number(maternal[0]) - 1].map(String).find((a) => !maternal.includes(a))!;
    const paternal = father.get('D3S1358')!.find((a) => !maternal.includes(a) && a !== moved) ?? moved;
    son.set('D3S1358', [...new Set([moved, paternal])].sort((a, b) => Number(a) - Number(b)));
    await profile(remainsCase, 'REMAINS-MUTANT', 'Unidentified Human (Remains)', son);
  }
  for (let i = 0; i < remains; i++) await profile(remainsCase, `REMAINS-${i}`, 'Unidentified Human (Remains)', generate());
  await searchesDone(t.app, tokens.admin);

  const addFamily = (overrides: Partial<FamilyInput> = {}) =>
    call<Family>(tokens.analyst, 'POST', `/api/cases/${caseId}/families`, {
      name: 'Family of the missing son',
      analysisId,
      relatives: [{ role: 'Mother', profileId: ids.get('MOTHER')! }, { role: 'Full sister', profileId: ids.get('SISTER')! }],
      populationIds: [populationId],
      threshold: 1000,
      ...overrides,
    });
  const activate = (family: Family) => call<FamilySearchAnswer>(tokens.analyst, 'POST', `/api/families/${family.id}/activate`, { version: family.version });
  return { t, orgId, caseId, populationId, analysisId, ids, tokens, addFamily, activate };
}
