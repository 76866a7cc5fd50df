import { randomBytes } from 'node:crypto';
import type { Entity, Verb } from '../../core/permissions';
import type { Db } from '../../server/db/database';
import { seedReferenceData } from '../../server/db/seed/reference-data';
import { accessGroupPermissions, accessGroups, organizations, userOrganizations, users } from '../../server/db/schema';

const unique = () => randomBytes(4).toString('hex');

/**
 * An organization for a test. Four-eyes review is off unless asked for: most tests enter and approve as one user
 * to test something else; four-eyes.test.ts tests the review itself, with organizations as the product makes them
 * (on by default).
 */
export async function createOrganization(db: Db, name = `Lab ${unique()}`, opts: { fourEyesReview?: boolean } = {}) {
  const [row] = await db.insert(organizations).values({ name, fourEyesReview: opts.fourEyesReview ?? false }).returning();
  return row!;
}

/**
 * Two laboratories, Oslo and Bergen, with the reference data seeded and its synthetic demo population shared with
 * Oslo only (allowed on request, never by a rule): the set-up of the tests that check one organization's view.
 */
export async function osloAndBergen(db: Db): Promise<{ a: string; b: string }> {
  const a = (await createOrganization(db, 'Oslo Lab')).id;
  const b = (await createOrganization(db, 'Bergen Lab')).id;
  await db.transaction((tx) => seedReferenceData(tx, { shareWith: [a] }));
  return { a, b };
}

export async function createAccessGroup(db: Db, opts: { name?: string; isAdmin?: boolean; grants?: Partial<Record<Entity, Verb[]>> } = {}) {
  const [group] = await db
    .insert(accessGroups)
    .values({ name: opts.name ?? `Role ${unique()}`, isAdmin: opts.isAdmin ?? false })
    .returning();
  const rows = Object.entries(opts.grants ?? {}).flatMap(([entity, verbs]) =>
    (verbs ?? []).map((verb) => ({ accessGroupId: group!.id, entity, verb })),
  );
  if (rows.length > 0) await db.insert(accessGroupPermissions).values(rows);
  return group!;
}

export async function createUser(
  db: Db,
  opts: {
    email?: string;
    scope?: 'All' | 'Organization' | null;
    accessGroupId?: string | null;
    organizationIds?: string[];
    passwordHash?: string | null;
    lockedAt?: Date | null;
  } = {},
) {
  const [user] = await db
    .insert(users)
    .values({
      email: opts.email ?? `user-${unique()}@lab.test`,
      firstName: 'Test',
      lastName: 'User',
      scope: opts.scope === undefined ? 'Organization' : opts.scope,
      accessGroupId: opts.accessGroupId ?? null,
      passwordHash: opts.passwordHash ?? null,
      lockedAt: opts.lockedAt ?? null,
    })
    .returning();
  for (const organizationId of opts.organizationIds ?? []) {
    await db.insert(userOrganizations).values({ userId: user!.id, organizationId });
  }
  return user!;
}
