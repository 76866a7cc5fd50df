import { eq, inArray, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../../../../server/db/database';
import { analyses, analysisGroups, settings } from '../../../../server/db/schema';
import { seedReferenceData } from '../../../../server/db/seed/reference-data';
import { addPedigreeAnalyses } from '../../../../server/db/seed/upgrades/pedigree-analyses';
import { SEED_KINSHIP_PEDIGREES } from '../../../../server/genetics/seed-analyses';
import { databaseEngines } from '../../../helpers/database';

const engines = await databaseEngines();

describe.each(engines)('the pedigree analyses upgrade (issue 16) on $name', ({ open }) => {
  let database: Database | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  /** A database as seeded before issue 16: no pedigrees, no Missing persons group, no mark. */
  async function seededBefore(db: Database['db']) {
    await db.transaction((tx) => seedReferenceData(tx, { shareWith: [] }));
    const [group] = await db.select().from(analysisGroups).where(eq(analysisGroups.name, 'Missing persons'));
    await db.delete(analyses).where(eq(analyses.analysisGroupId, group!.id));
    await db.delete(analysisGroups).where(eq(analysisGroups.id, group!.id));
    await db.update(analyses).set({ pedigree: null });
    await db.delete(settings).where(eq(settings.id, 'seed:pedigree-analyses'));
  }

  it('gives the seed pairwise and trio analyses their pedigree and adds the six family shapes, once', async () => {
    database = await open();
    const db = database.db;
    await seededBefore(db);
    // An administrator renamed a role of Full siblings: its pedigree would not fit, so it is left without one.
    await db.update(analyses).set({ roles: ['Brother', 'Sister'] }).where(eq(analyses.name, 'Full siblings'));

    expect(await addPedigreeAnalyses(db)).toEqual({ pedigrees: 4, groupAdded: true });
    const withPedigree = await db.select({ name: analyses.name, pedigree: analyses.pedigree }).from(analyses).where(inArray(analyses.name, Object.keys(SEED_KINSHIP_PEDIGREES)));
    expect(Object.fromEntries(withPedigree.map((r) => [r.name, r.pedigree?.target ?? null]))).toEqual({
      'Parent–child': 'Alleged parent',
      'Paternity trio': 'Alleged father',
      'Full siblings': null,
      'Half siblings / second degree': 'Person 2',
      'First cousins': 'Person 2',
    });
    const family = await db.select({ name: analyses.name, kind: analyses.kind }).from(analyses).innerJoin(analysisGroups, eq(analysisGroups.id, analyses.analysisGroupId)).where(eq(analysisGroups.name, 'Missing persons'));
    expect(family.map((f) => f.name).sort()).toEqual(['Both parents', 'Father and child', 'Half-brother and uncle', 'Mother and full sister', 'Paternal grandparents', 'Wife and two children']);
    expect(new Set(family.map((f) => f.kind))).toEqual(new Set(['Pedigree']));

    // Once: the administrator deletes the group; a later start does not bring it back.
    const [group] = await db.select().from(analysisGroups).where(eq(analysisGroups.name, 'Missing persons'));
    await db.delete(analyses).where(eq(analyses.analysisGroupId, group!.id));
    await db.delete(analysisGroups).where(eq(analysisGroups.id, group!.id));
    expect(await addPedigreeAnalyses(db)).toEqual({ pedigrees: 0, groupAdded: false });
    expect(await db.$count(analyses, sql`${analyses.kind} = 'Pedigree'`)).toBe(0);
  });

  it('finds a fresh seed complete: nothing to add', async () => {
    database = await open();
    const db = database.db;
    await db.transaction((tx) => seedReferenceData(tx, { shareWith: [] }));
    expect(await addPedigreeAnalyses(db)).toEqual({ pedigrees: 0, groupAdded: false });
    expect(await db.$count(analyses, sql`${analyses.kind} = 'Pedigree'`)).toBe(6);
  });
});
