import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../../server/db/database';
import { analyses, analysisGroups, cases, caseTypes, chemistries, hitHistory, hitProfiles, hits, populations, profiles } from '../../../../server/db/schema';
import { hitDedupeKey } from '../../../../server/hits/dedupe-key';
import { deleteHitsOf, recordHitCandidates, withdrawPendingHits } from '../../../../server/hits/record-hits';
import type { HitCandidate } from '../../../../server/matching/types';
import { freshPglite } from '../../../helpers/database';
import { createOrganization } from '../../../helpers/factories';

let database: Database;
let orgId: string;
let analysisId: string;
const populationIds: string[] = [];
const p: string[] = [];

beforeAll(async () => {
  database = await freshPglite();
  const db = database.db;
  orgId = (await createOrganization(db)).id;
  const [type] = await db.insert(caseTypes).values({ name: 'Homicide' }).returning();
  const [caseRow] = await db.insert(cases).values({ caseNumber: 'C-1', caseTypeId: type!.id, organizationId: orgId }).returning();
  const [chemistry] = await db.insert(chemistries).values({ name: 'Kit', kind: 'Autosomal' }).returning();
  for (const name of ['P1', 'P2', 'P3']) {
    const [row] = await db.insert(profiles).values({ profileId: name, caseId: caseRow!.id, organizationId: orgId, kind: 'Autosomal', chemistryId: chemistry!.id, sampleType: 'Reference', status: 'approved' }).returning();
    p.push(row!.id);
  }
  const [group] = await db.insert(analysisGroups).values({ name: 'Identity' }).returning();
  analysisId = (await db.insert(analyses).values({ analysisGroupId: group!.id, name: 'Identity', kind: 'Computational', roles: ['Evidence', 'Reference'] }).returning())[0]!.id;
  for (const name of ['Pop 1', 'Pop 2']) populationIds.push((await db.insert(populations).values({ name }).returning())[0]!.id);
}, 30_000);
afterAll(() => database.close());

const candidate = (a: string, b: string, populationId = populationIds[0]!): HitCandidate => ({
  analysisId,
  populationId,
  profiles: [{ role: 'Evidence', profileId: a }, { role: 'Reference', profileId: b }],
  combinedIndex: 1.5e18,
  markerCount: 20,
  nonExclusionMarkerCount: null,
});

const record = (...candidates: HitCandidate[]) => database.db.transaction((tx) => recordHitCandidates(tx as never, { organizationId: orgId, candidates }));

describe('recording hit candidates', () => {
  it('stores a candidate once, however often the search finds it, and returns only the new hits', async () => {
    const first = await record(candidate(p[0]!, p[1]!), candidate(p[0]!, p[1]!));
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ status: 'pending', organizationId: orgId, combinedIndex: 1.5e18, markerCount: 20 });
    expect(await record(candidate(p[0]!, p[1]!))).toEqual([]);
    const stored = await database.db.select().from(hitProfiles).where(eq(hitProfiles.hitId, first[0]!.id));
    expect(stored.sort((a, b) => a.position - b.position).map((r) => [r.role, r.position, r.profileId])).toEqual([['Evidence', 0, p[0]], ['Reference', 1, p[1]]]);
    expect(await database.db.select().from(hitHistory).where(eq(hitHistory.hitId, first[0]!.id))).toEqual([expect.objectContaining({ fromStatus: null, toStatus: 'pending', userId: null })]);
  });

  it('keys a hit by analysis, population and the set of role–profile pairs (not their order)', () => {
    const swapped = { ...candidate(p[0]!, p[1]!), profiles: [...candidate(p[0]!, p[1]!).profiles].reverse() };
    expect(hitDedupeKey(swapped)).toBe(hitDedupeKey(candidate(p[0]!, p[1]!)));
    expect(hitDedupeKey(candidate(p[1]!, p[0]!))).not.toBe(hitDedupeKey(candidate(p[0]!, p[1]!)));
    expect(hitDedupeKey(candidate(p[0]!, p[1]!, populationIds[1]))).not.toBe(hitDedupeKey(candidate(p[0]!, p[1]!)));
  });

  it('records the same profiles over another population, or in other roles, as other hits', async () => {
    const added = await record(candidate(p[0]!, p[1]!, populationIds[1]), candidate(p[1]!, p[0]!));
    expect(added).toHaveLength(2);
  });

  it('does not find a rejected hit again', async () => {
    const [hit] = await record(candidate(p[2]!, p[1]!));
    await database.db.update(hits).set({ status: 'rejected' }).where(eq(hits.id, hit!.id));
    expect(await record(candidate(p[2]!, p[1]!))).toEqual([]);
  });
});

describe('removing the hits of a profile', () => {
  it('withdraws only the pending hits naming the profile, and deletes all of them on reset-delete', async () => {
    const [pending, published, other] = await record(candidate(p[2]!, p[0]!, populationIds[1]), candidate(p[0]!, p[2]!, populationIds[1]), candidate(p[1]!, p[1]!));
    await database.db.update(hits).set({ status: 'published' }).where(eq(hits.id, published!.id));

    const withdrawn = await database.db.transaction((tx) => withdrawPendingHits(tx as never, p[2]!));
    expect(withdrawn).toContain(pending!.id);
    expect(withdrawn).not.toContain(published!.id);
    const left = await database.db.select({ id: hits.id, status: hits.status }).from(hits).where(inArray(hits.id, [pending!.id, published!.id, other!.id]));
    expect(left.map((h) => h.id).sort()).toEqual([published!.id, other!.id].sort());

    const deleted = await database.db.transaction((tx) => deleteHitsOf(tx as never, p[2]!));
    expect(deleted).toContain(published!.id);
    const naming = await database.db.select().from(hitProfiles).where(eq(hitProfiles.profileId, p[2]!));
    expect(naming).toEqual([]);
    expect(await database.db.select({ id: hits.id }).from(hits).where(eq(hits.id, other!.id))).toHaveLength(1);
  });
});
