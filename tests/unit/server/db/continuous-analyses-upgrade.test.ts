import { and, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../../../../server/db/database';
import { analyses, analysisGroups, settings } from '../../../../server/db/schema';
import { seedReferenceData } from '../../../../server/db/seed/reference-data';
import { applySeedUpgrades } from '../../../../server/db/seed/upgrades';
import { databaseEngines } from '../../../helpers/database';

const engines = await databaseEngines();

describe.each(engines)('the continuous mixture analysis upgrade (issue 31) on $name', ({ open }) => {
  let database: Database | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it('adds the Continuous mixture analysis to the Mixtures group of a database seeded before issue 31, once; deleted, it stays deleted', async () => {
    database = await open();
    const db = database.db;
    await db.transaction((tx) => seedReferenceData(tx, { shareWith: [] }));
    const continuous = () =>
      db.select({ name: analyses.name, kind: analyses.kind, roles: analyses.roles, group: analysisGroups.name }).from(analyses).innerJoin(analysisGroups, eq(analysisGroups.id, analyses.analysisGroupId)).where(eq(analyses.kind, 'Continuous mixture'));
    // As seeded before issue 31: no continuous analysis, no mark.
    await db.delete(analyses).where(eq(analyses.kind, 'Continuous mixture'));
    await db.delete(settings).where(eq(settings.id, 'seed:continuous-analyses'));

    await applySeedUpgrades(db);
    expect(await continuous()).toEqual([{ name: 'Continuous mixture', kind: 'Continuous mixture', roles: ['Evidence', 'Person of interest'], group: 'Mixtures' }]);

    await db.delete(analyses).where(and(eq(analyses.kind, 'Continuous mixture'), eq(analyses.name, 'Continuous mixture')));
    await applySeedUpgrades(db);
    expect(await continuous()).toEqual([]);
    // Migrating PGlite from nothing takes 18–20 s alone and over 30 s beside another suite (two CI-like runs timed out at the default).
  }, 120_000);
});
