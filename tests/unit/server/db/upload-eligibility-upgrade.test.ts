import { asc } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../../../../server/db/database';
import { uploadEligibilityIndexes } from '../../../../server/db/schema';
import { applySeedUpgrades } from '../../../../server/db/seed/upgrades';
import { freshPglite } from '../../../helpers/database';

describe('the upload eligibility upgrade (issue 32)', () => {
  let database: Database | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it('gives a database created before issue 32 the seed indexes at start-up, once', async () => {
    database = await freshPglite();
    const names = async () => (await database!.db.select({ name: uploadEligibilityIndexes.name }).from(uploadEligibilityIndexes).orderBy(asc(uploadEligibilityIndexes.position))).map((r) => r.name);
    expect(await names()).toEqual([]);
    await applySeedUpgrades(database.db);
    await applySeedUpgrades(database.db);
    expect(await names()).toEqual(['Convicted Offender', 'Arrestee', 'Forensic Unknown', 'Forensic Mixture', 'Missing Person', 'Unidentified Human Remains', 'Relatives of Missing Person']);
    // Migrating PGlite from nothing takes tens of seconds on a loaded machine.
  }, 120_000);
});
