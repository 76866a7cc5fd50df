import { KIT_BINS } from '../../../../server/db/seed/reference/kit-bins';
import { asc, eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../../../../server/db/database';
import {
  accessGroups,
  analyses,
  analysisGroups,
  caseTypes,
  chemistries,
  chemistryMarkers,
  kitMarkers,
  emailTemplates,
  markers,
  organizations,
  populationOrganizations,
  populations,
  sampleSources,
  searchRules,
  settings,
  userOrganizations,
  users,
} from '../../../../server/db/schema';
import { DEMO_ORGANIZATIONS, DEMO_USERS } from '../../../../server/db/seed/demo';
import { seedFirstStart } from '../../../../server/db/seed/first-start';
import { SEED_MIXTURE_RULES, SEED_SEARCH_RULES } from '../../../../server/db/seed/search-rules';
import { applySeedUpgrades } from '../../../../server/db/seed/upgrades';
import { verifyPassword } from '../../../../server/identity/password';
import { missingPatterns } from '../../../../server/http/analyses/analysis-view';
import { databaseEngines } from '../../../helpers/database';

const engines = await databaseEngines();

describe.each(engines)('first start on $name', ({ open }) => {
  let database: Database | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
  });

  it('seeds the analyses of GENETICS.md in their groups, each formula table complete', async () => {
    database = await open();
    await seedFirstStart(database.db, { demo: false });
    const groups = await database.db.select().from(analysisGroups).orderBy(asc(analysisGroups.name));
    expect(groups.map((g) => g.name)).toEqual(['Exclusion', 'Identity', 'Kinship', 'Missing persons', 'Mixtures', 'Y-STR']);
    const rows = await database.db.select().from(analyses);
    expect(rows).toHaveLength(19);
    // Issue 31: the calculator offers the continuous (peak-height) model in the Mixtures group.
    expect(rows.filter((r) => r.kind === 'Continuous mixture').map((r) => [r.name, r.roles, r.mixture])).toEqual([['Continuous mixture', ['Evidence', 'Person of interest'], null]]);
    expect(rows.filter((r) => r.kind === 'Mixture').map((r) => [r.name, r.mixture?.contributors])).toEqual([
      ['Partial profile (1 contributor)', 1],
      ['Mixture, 2 contributors', 2],
      ['Mixture, 3 contributors', 3],
    ]);
    expect(rows.filter((r) => r.pedigree).map((r) => r.name).sort()).toEqual(
      ['Both parents', 'Father and child', 'First cousins', 'Full siblings', 'Half siblings / second degree', 'Half-brother and uncle', 'Mother and full sister', 'Parent–child', 'Paternal grandparents', 'Paternity trio', 'Wife and two children'],
    );
    for (const row of rows) expect(await missingPatterns(database.db, row), row.name).toEqual([]);
  });

  it('creates the administrator with scope All and a generated strong password, once', async () => {
    database = await open();
    const first = await seedFirstStart(database.db, { demo: true });
    expect(first.createdAdmin?.generated).toBe(true);
    expect(first.createdAdmin?.password.length).toBeGreaterThanOrEqual(24);
    const [admin] = await database.db.select().from(users);
    expect(admin).toMatchObject({ email: 'admin@locus.local', scope: 'All' });
    expect(await verifyPassword(first.createdAdmin!.password, admin!.passwordHash)).toBe(true);
    const [group] = await database.db.select().from(accessGroups).where(eq(accessGroups.id, admin!.accessGroupId!));
    expect(group).toMatchObject({ name: 'Administrator', isAdmin: true });
    // The About and Contact texts, and the mark that the seed search rules were written (once per database).
    expect((await database.db.select().from(settings)).map((s) => s.id).sort()).toEqual(['About', 'Contact', 'seed:continuous-analyses', 'seed:mixture-analyses', 'seed:pedigree-analyses', 'seed:search-rules']);
    const rules = await database.db.select().from(searchRules);
    expect(rules.map((r) => r.name).sort()).toEqual([...SEED_SEARCH_RULES, ...SEED_MIXTURE_RULES].map((r) => r.name).sort());
    expect(rules.filter((r) => r.trigger === 'request').map((r) => r.searchedSampleTypes)).toEqual([
      ['Convicted Offender', 'Arrestee'],
      ['Convicted Offender', 'Arrestee'],
    ]);
    // Deleting a seed rule sticks: a later start does not write the policy again.
    await database.db.delete(searchRules).where(eq(searchRules.id, rules[0]!.id));
    await applySeedUpgrades(database.db);
    expect(await database.db.select().from(searchRules)).toHaveLength(rules.length - 1);

    const second = await seedFirstStart(database.db, { demo: true });
    expect(second.createdAdmin).toBeUndefined();
    expect(second.demoUsers).toBeUndefined();
    expect(await database.db.select().from(users)).toHaveLength(1 + DEMO_USERS.length);
  });

  it('uses LOCUS_ADMIN_EMAIL and LOCUS_ADMIN_PASSWORD when given, and no demo organization without demo mode', async () => {
    database = await open();
    const result = await seedFirstStart(database.db, { adminEmail: 'boss@lab.test', adminPassword: 'correct horse battery', demo: false });
    expect(result.createdAdmin).toEqual({ email: 'boss@lab.test', password: 'correct horse battery', generated: false });
    const [admin] = await database.db.select().from(users);
    expect(await verifyPassword('correct horse battery', admin!.passwordHash)).toBe(true);
    expect(await verifyPassword('wrong', admin!.passwordHash)).toBe(false);
    expect(await database.db.select().from(organizations)).toHaveLength(0);
    expect(await database.db.select().from(users)).toHaveLength(1);
  });

  it('seeds the reference data: markers with aliases, the five kits in published order and the other kits of kit.txt (issue 31), lists, a synthetic population, e-mail templates', async () => {
    database = await open();
    await seedFirstStart(database.db, { demo: false });
    const db = database.db;
    const vwa = (await db.select().from(markers).where(eq(markers.name, 'vWA')))[0];
    expect(vwa?.aliases).toEqual(expect.arrayContaining(['VWA']));
    const kits = await db.select().from(chemistries).orderBy(chemistries.name);
    expect(kits.map((k) => k.name)).toEqual([...new Set(['GlobalFiler', 'Identifiler Plus', 'PowerPlex Fusion 6C', 'PowerPlex Y23', 'Yfiler Plus', ...KIT_BINS.map((k) => k.name)])].sort((a, b) => (a < b ? -1 : 1)));
    // Each kit has its allele bins (issue 31): 18 kits of kit.txt.
    expect(new Set((await db.select({ id: kitMarkers.chemistryId }).from(kitMarkers)).map((r) => r.id)).size).toBe(KIT_BINS.length);
    const globalFiler = kits.find((k) => k.name === 'GlobalFiler')!;
    const order = await db
      .select({ name: markers.name })
      .from(chemistryMarkers)
      .innerJoin(markers, eq(markers.id, chemistryMarkers.markerId))
      .where(eq(chemistryMarkers.chemistryId, globalFiler.id))
      .orderBy(asc(chemistryMarkers.position));
    expect(order).toHaveLength(24);
    expect(order.slice(0, 3).map((m) => m.name)).toEqual(['D3S1358', 'vWA', 'D16S539']);
    expect((await db.select().from(caseTypes)).length).toBeGreaterThan(5);
    expect((await db.select().from(sampleSources)).length).toBeGreaterThan(5);
    const [population] = await db.select().from(populations);
    expect(population?.name).toMatch(/synthetic/i);
    // Not shared with any organization outside demo mode: only scope All users see it.
    expect(await db.select().from(populationOrganizations)).toHaveLength(0);
    expect((await db.select().from(emailTemplates)).map((t) => t.hook)).toContain('hit-published');
  });

  it('creates demo organizations and organization-scoped demo users only in demo mode', async () => {
    database = await open();
    const result = await seedFirstStart(database.db, { demo: true });
    expect(result.demoUsers?.emails).toEqual(DEMO_USERS.map((u) => u.email));
    const db = database.db;
    expect((await db.select().from(organizations)).map((o) => o.name).sort()).toEqual([...DEMO_ORGANIZATIONS].sort());
    const other = (await db.select().from(users).where(eq(users.email, 'other-lab@demo.locus.local')))[0]!;
    expect(other.scope).toBe('Organization');
    expect(await verifyPassword(result.demoUsers!.password, other.passwordHash)).toBe(true);
    const memberships = await db
      .select({ name: organizations.name })
      .from(userOrganizations)
      .innerJoin(organizations, eq(organizations.id, userOrganizations.organizationId))
      .where(eq(userOrganizations.userId, other.id));
    expect(memberships.map((m) => m.name)).toEqual(['Second Demo Laboratory']);
    expect(await db.select().from(populationOrganizations)).toHaveLength(DEMO_ORGANIZATIONS.length);
  });
});
