import { count } from 'drizzle-orm';
import { ENTITIES, VERBS, type Entity, type Verb } from '../../../core/permissions';
import { generatePassword, hashPassword } from '../../identity/password';
import type { Db } from '../database';
import { DEFAULT_EMAIL_TEMPLATES } from '../../../core/schemas/email-templates';
import { accessGroupPermissions, accessGroups, emailTemplates, settings, users } from '../schema';
import { DEMO_USERS, seedDemo } from './demo';
import { seedReferenceData } from './reference-data';

export const DEFAULT_ADMIN_EMAIL = 'admin@locus.local';

/** Casework reads the reference lists (case form, marker entry, statistics); it does not change them. */
const REFERENCE_READ: Partial<Record<Entity, Verb[]>> = {
  CaseTypes: ['Read'],
  SampleSources: ['Read'],
  Laboratories: ['Read'],
  Markers: ['Read'],
  AutosomalChemistries: ['Read'],
  YStrChemistries: ['Read'],
  Populations: ['Read'],
};

/** Roles a laboratory starts from; administrators refine them under Roles. */
const STARTER_ROLES: { name: string; isAdmin: boolean; grants: Partial<Record<Entity, Verb[]>> }[] = [
  { name: 'Administrator', isAdmin: true, grants: Object.fromEntries(ENTITIES.map((e) => [e, [...VERBS]])) },
  {
    name: 'Analyst',
    isAdmin: false,
    grants: {
      Cases: ['Read', 'Add', 'Edit', 'ViewAudit', 'ChangeSettings'],
      Profiles: ['Read', 'Add', 'Edit', 'ViewAudit'],
      Hits: ['Read'],
      ...REFERENCE_READ,
      Analyses: ['Read'],
      SearchRules: ['Read'],
      TaskRequests: ['Read', 'Add', 'Edit'],
    },
  },
  {
    name: 'Reviewer',
    isAdmin: false,
    grants: {
      Cases: ['Read', 'ViewAudit'],
      // Approving and rejecting a profile is an edit of its status; returning it to pending is Reset.
      Profiles: ['Read', 'Edit', 'Reset', 'ViewAudit'],
      Hits: ['Read', 'Publish', 'Reset'],
      ...REFERENCE_READ,
      Analyses: ['Read'],
      SearchRules: ['Read'],
      TaskRequests: ['Read'],
    },
  },
];

export interface FirstStartResult {
  /** Set only on the very first start: the administrator that was created. */
  createdAdmin?: { email: string; password: string; generated: boolean };
  /** Demo mode, first start: the demo accounts and their one generated (demo-only) password. */
  demoUsers?: { emails: string[]; password: string };
}

/**
 * Runs once, on an empty database, in one transaction: the first administrator (scope All), starter
 * roles, reference data, e-mail templates, the About and Contact texts and, in demo mode only, demo
 * organizations and users. Later starts change nothing.
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
  const demoPassword = opts.demo ? generatePassword() : undefined;
  const demoPasswordHash = demoPassword ? await hashPassword(demoPassword) : undefined;

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
    const demoOrgIds = opts.demo ? await seedDemo(tx, { adminId: admin!.id, roleIds: groupIds, passwordHash: demoPasswordHash! }) : new Map<string, string>();
    await seedReferenceData(tx, { shareWith: [...demoOrgIds.values()] });
    await tx.insert(emailTemplates).values(DEFAULT_EMAIL_TEMPLATES.map((t) => ({ hook: t.hook, subject: t.subject, body: t.body })));
    await tx
      .insert(settings)
      .values([
        { id: 'About', text: '<p>Locus keeps forensic DNA cases, profiles and the hits between them.</p>' },
        { id: 'Contact', text: '<p>Contact your laboratory administrator.</p>' },
      ])
      .onConflictDoNothing();
  });
  return {
    createdAdmin: { email, password, generated: opts.adminPassword === undefined },
    ...(demoPassword ? { demoUsers: { emails: DEMO_USERS.map((u) => u.email), password: demoPassword } } : {}),
  };
}
