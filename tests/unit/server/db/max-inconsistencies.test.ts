import { and, eq, inArray } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../../../../server/db/database';
import { analyses, analysisConstants } from '../../../../server/db/schema';
import { seedReferenceData } from '../../../../server/db/seed/reference-data';
import { addMaxInconsistencies } from '../../../../server/db/seed/upgrades/max-inconsistencies';
import { databaseEngines } from '../../../helpers/database';

const engines = await databaseEngines();

describe.each(engines)('the maxInconsistencies upgrade on $name', ({ open }) => {
  let database: Database | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  /** Each analysis's maxInconsistencies value by analysis name (absent: none). */
  async function holders(db: Database['db']): Promise<Record<string, number>> {
    const rows = await db
      .select({ name: analyses.name, value: analysisConstants.value })
      .from(analysisConstants)
      .innerJoin(analyses, eq(analyses.id, analysisConstants.analysisId))
      .where(eq(analysisConstants.name, 'maxInconsistencies'));
    return Object.fromEntries(rows.map((r) => [r.name, r.value]));
  }

  it('adds the constant to Parent–child and Paternity trio (active or not) of a database seeded before it, once', async () => {
    database = await open();
    const db = database.db;
    await db.transaction((tx) => seedReferenceData(tx, { shareWith: [] }));
    // A database seeded before issue 12: no maxInconsistencies anywhere, the trio deactivated by an administrator.
    await db.delete(analysisConstants).where(eq(analysisConstants.name, 'maxInconsistencies'));
    await db.update(analyses).set({ active: false }).where(eq(analyses.name, 'Paternity trio'));
    expect(await holders(db)).toEqual({});

    expect(await addMaxInconsistencies(db)).toBe(2);
    expect(await holders(db)).toEqual({ 'Parent–child': 1, 'Paternity trio': 1 });
    const [constant] = await db
      .select()
      .from(analysisConstants)
      .innerJoin(analyses, eq(analyses.id, analysisConstants.analysisId))
      .where(and(eq(analyses.name, 'Parent–child'), eq(analysisConstants.name, 'maxInconsistencies')));
    expect(constant!.analysis_constants).toMatchObject({ notation: '\\mathrm{max}_{\\mathrm{inc}}', value: 1, version: 1 });

    // Idempotent: a second start-up adds nothing.
    expect(await addMaxInconsistencies(db)).toBe(0);
    expect(await db.select().from(analysisConstants).where(eq(analysisConstants.name, 'maxInconsistencies'))).toHaveLength(2);
  });

  it('leaves an administrator’s value, analyses of other names, and a fresh seed (which already holds it) as they are', async () => {
    database = await open();
    const db = database.db;
    await db.transaction((tx) => seedReferenceData(tx, { shareWith: [] }));
    expect(await holders(db)).toEqual({ 'Parent–child': 1, 'Paternity trio': 1 });
    expect(await addMaxInconsistencies(db)).toBe(0);

    const [trio] = await db.select().from(analyses).where(eq(analyses.name, 'Paternity trio'));
    await db.update(analysisConstants).set({ value: 2 }).where(and(eq(analysisConstants.analysisId, trio!.id), eq(analysisConstants.name, 'maxInconsistencies')));
    await db.delete(analysisConstants).where(and(eq(analysisConstants.name, 'maxInconsistencies'), eq(analysisConstants.analysisId, (await db.select().from(analyses).where(eq(analyses.name, 'Parent–child')))[0]!.id)));
    expect(await addMaxInconsistencies(db)).toBe(1);
    expect(await holders(db)).toEqual({ 'Parent–child': 1, 'Paternity trio': 2 });
    const others = await db.select({ id: analyses.id }).from(analyses).where(inArray(analyses.name, ['Parent–child exclusion', 'Full siblings', 'Identity']));
    expect(others).toHaveLength(3);
    expect(await db.select().from(analysisConstants).where(and(eq(analysisConstants.name, 'maxInconsistencies'), inArray(analysisConstants.analysisId, others.map((o) => o.id))))).toEqual([]);
  });

  it('does nothing on a database without the seed analyses', async () => {
    database = await open();
    expect(await addMaxInconsistencies(database.db)).toBe(0);
  });
});
