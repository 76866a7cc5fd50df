import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../../../../server/db/database';
import { analyses, analysisGroups, searchRules, settings } from '../../../../server/db/schema';
import { seedReferenceData } from '../../../../server/db/seed/reference-data';
import { applySeedUpgrades } from '../../../../server/db/seed/upgrades';
import { addMixtureAnalyses } from '../../../../server/db/seed/upgrades/mixture-analyses';
import { databaseEngines } from '../../../helpers/database';

const engines = await databaseEngines();

describe.each(engines)('the mixture analyses upgrade (issue 17) on $name', ({ open }) => {
  let database: Database | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it('adds the Mixtures group to a database seeded before issue 17, once; a deleted group stays deleted', async () => {
    database = await open();
    const db = database.db;
    await db.transaction((tx) => seedReferenceData(tx, { shareWith: [] }));
    // As seeded before issue 17: no Mixtures group, no mixture rule, no mark.
    await db.delete(searchRules).where(eq(searchRules.name, 'Forensic mixtures against offender, arrestee and suspect profiles (mixture LR)'));
    const [group] = await db.select().from(analysisGroups).where(eq(analysisGroups.name, 'Mixtures'));
    await db.delete(analyses).where(eq(analyses.analysisGroupId, group!.id));
    await db.delete(analysisGroups).where(eq(analysisGroups.id, group!.id));
    await db.delete(settings).where(eq(settings.id, 'seed:mixture-analyses'));

    await applySeedUpgrades(db);
    const added = await db.select({ name: analyses.name, kind: analyses.kind, roles: analyses.roles }).from(analyses).innerJoin(analysisGroups, eq(analysisGroups.id, analyses.analysisGroupId)).where(eq(analysisGroups.name, 'Mixtures'));
    expect(added.map((a) => a.name).sort()).toEqual(['Mixture, 2 contributors', 'Mixture, 3 contributors', 'Partial profile (1 contributor)']);
    const [rule] = await db.select().from(searchRules).where(eq(searchRules.name, 'Forensic mixtures against offender, arrestee and suspect profiles (mixture LR)'));
    expect(rule).toMatchObject({ trigger: 'approval', searchingSampleTypes: ['Forensic Mixture'], searchedSampleTypes: ['Convicted Offender', 'Arrestee', 'Suspect, Known'] });
    expect(added.every((a) => a.kind === 'Mixture' && a.roles.join() === 'Evidence,Person of interest')).toBe(true);

    const [again] = await db.select().from(analysisGroups).where(eq(analysisGroups.name, 'Mixtures'));
    await db.delete(searchRules).where(eq(searchRules.name, 'Forensic mixtures against offender, arrestee and suspect profiles (mixture LR)'));
    await db.delete(analyses).where(eq(analyses.analysisGroupId, again!.id));
    await db.delete(analysisGroups).where(eq(analysisGroups.id, again!.id));
    expect(await addMixtureAnalyses(db)).toEqual({ groupAdded: false, rules: 0 });
    expect(await db.select().from(analysisGroups).where(eq(analysisGroups.name, 'Mixtures'))).toEqual([]);
    // Migrating PGlite from nothing takes 18–20 s alone and over 30 s beside another suite (two CI-like runs timed out at the default).
  }, 120_000);
});
