import { count } from 'drizzle-orm';
import { ENTITIES, VERBS, type Entity, type Verb } from '../../../core/permissions';
import { generatePassword, hashPassword } from '../../identity/password';
import type { Db } from '../database';
import { accessGroupPermissions, accessGroups, organizations, settings, userOrganizations, users } from '../schema';

export const DEFAULT_ADMIN_EMAIL = 'admin@locus.local';

/** Roles a laboratory starts from; administrators refine them under Roles. */
const STARTER_ROLES: { name: string; isAdmin: boolean; grants: Partial<Record<Entity, Verb[]>> }[] = [
  { name: 'Administrator', isAdmin: true, grants: Object.fromEntries(ENTITIES.map((e) => [e, [...VERBS]])) },
  {
    name: 'Analyst',
    isAdmin: false,
    grants: {
      Cases: ['Read', 'Add', 'Edit', 'ViewAudit'],
      Profiles: ['Read', 'Add', 'Edit'],
      Hits: ['Read'],
      Markers: ['Read'],
      Populations: ['Read'],
      Analyses: ['Read'],
      TaskRequests: ['Read', 'Add', 'Edit'],
    },
  },
  {
    name: 'Reviewer',
    isAdmin: false,
    grants: {
      Cases: ['Read', 'ViewAudit'],
      Profiles: ['Read'],
      Hits: ['Read', 'Publish', 'Reset'],
      Markers: ['Read'],
      Populations: ['Read'],
      Analyses: ['Read'],
      TaskRequests: ['Read'],
    },
  },
];

export interface FirstStartResult {
  /** Set only on the very first start: the administrator that was created. */
  createdAdmin?: { email: string; password: string; generated: boolean };
}

/**
 * Runs once, on an empty database: the first administrator (scope All), starter roles, the About
 * and Contact texts and, in demo mode, a demo organization. Later starts change nothing.
 */
export async function seedFirstStart(
  db: Db,
  opts: { adminEmail?: string; adminPassword?: string; demo: boolean },
): Promise<FirstStartResult> {
  const [existing] = await db.select({ n: count() }).from(users);
  if ((existing?.n ?? 0) > 0) return {};

  const email = opts.adminEmail ?? DEFAULT_ADMIN_EMAIL;
  const password = opts.adminPassword ?? generatePassword();
  const passwordHash = await hashPassword(password);

  await db.transaction(async (tx) => {
    const groupIds = new Map<string, string>();
    for (const role of STARTER_ROLES) {
      const [group] = await tx.insert(accessGroups).values({ name: role.name, isAdmin: role.isAdmin }).returning();
      groupIds.set(role.name, group!.id);
      const rows = Object.entries(role.grants).flatMap(([entity, verbs]) =>
        (verbs ?? []).map((verb) => ({ accessGroupId: group!.id, entity, verb })),
      );
      if (rows.length > 0) await tx.insert(accessGroupPermissions).values(rows);
    }
    const [admin] = await tx
      .insert(users)
      .values({
        email,
        firstName: 'Locus',
        lastName: 'Administrator',
        scope: 'All',
        accessGroupId: groupIds.get('Administrator')!,
        passwordHash,
        receiveNotifications: true,
      })
      .returning();
    if (opts.demo) {
      const [org] = await tx.insert(organizations).values({ name: 'Demo Laboratory' }).returning();
      await tx.insert(userOrganizations).values({ userId: admin!.id, organizationId: org!.id });
    }
    await tx
      .insert(settings)
      .values([
        { id: 'About', text: '<p>Locus keeps forensic DNA cases, profiles and the hits between them.</p>' },
        { id: 'Contact', text: '<p>Contact your laboratory administrator.</p>' },
      ])
      .onConflictDoNothing();
  });
  return { createdAdmin: { email, password, generated: opts.adminPassword === undefined } };
}
