import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { Database } from '../../../../server/db/database';
import { accessGroups, organizations, settings, users } from '../../../../server/db/schema';
import { seedFirstStart } from '../../../../server/db/seed/first-start';
import { verifyPassword } from '../../../../server/identity/password';
import { databaseEngines } from '../../../helpers/database';

const engines = await databaseEngines();

describe.each(engines)('first start on $name', ({ open }) => {
  let database: Database | undefined;
  afterEach(async () => {
    await database?.close();
    database = undefined;
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
    expect(await database.db.select().from(organizations)).toHaveLength(1);
    expect((await database.db.select().from(settings)).map((s) => s.id).sort()).toEqual(['About', 'Contact']);

    const second = await seedFirstStart(database.db, { demo: true });
    expect(second.createdAdmin).toBeUndefined();
    expect(await database.db.select().from(users)).toHaveLength(1);
  });

  it('uses LOCUS_ADMIN_EMAIL and LOCUS_ADMIN_PASSWORD when given, and no demo organization without demo mode', async () => {
    database = await open();
    const result = await seedFirstStart(database.db, { adminEmail: 'boss@lab.test', adminPassword: 'correct horse battery', demo: false });
    expect(result.createdAdmin).toEqual({ email: 'boss@lab.test', password: 'correct horse battery', generated: false });
    const [admin] = await database.db.select().from(users);
    expect(await verifyPassword('correct horse battery', admin!.passwordHash)).toBe(true);
    expect(await verifyPassword('wrong', admin!.passwordHash)).toBe(false);
    expect(await database.db.select().from(organizations)).toHaveLength(0);
  });
});
