import type { Db } from '../database';
import { organizations, userOrganizations, users } from '../schema';

/** Demo organizations: one for the demo staff, one whose user must never see the first one's data. */
export const DEMO_ORGANIZATIONS = ['Demo Laboratory', 'Second Demo Laboratory'] as const;

/** Demo-only accounts (never created unless demo mode, which production refuses); all share one generated password. */
export const DEMO_USERS = [
  { email: 'analyst@demo.locus.local', firstName: 'Demo', lastName: 'Analyst', role: 'Analyst', organization: 'Demo Laboratory' },
  { email: 'reviewer@demo.locus.local', firstName: 'Demo', lastName: 'Reviewer', role: 'Reviewer', organization: 'Demo Laboratory' },
  { email: 'other-lab@demo.locus.local', firstName: 'Demo', lastName: 'Other Lab', role: 'Analyst', organization: 'Second Demo Laboratory' },
] as const;

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * Demo organizations and users with organization scope. Returns the organization ids by name so
 * the caller can share demo data with them.
 */
export async function seedDemo(
  tx: Tx,
  opts: { adminId: string; roleIds: ReadonlyMap<string, string>; passwordHash: string },
): Promise<Map<string, string>> {
  const orgIds = new Map<string, string>();
  for (const name of DEMO_ORGANIZATIONS) {
    const [org] = await tx.insert(organizations).values({ name }).returning();
    orgIds.set(name, org!.id);
  }
  await tx.insert(userOrganizations).values({ userId: opts.adminId, organizationId: orgIds.get('Demo Laboratory')! });
  for (const demo of DEMO_USERS) {
    const [user] = await tx
      .insert(users)
      .values({
        email: demo.email,
        firstName: demo.firstName,
        lastName: demo.lastName,
        scope: 'Organization',
        accessGroupId: opts.roleIds.get(demo.role)!,
        passwordHash: opts.passwordHash,
        receiveNotifications: true,
      })
      .returning();
    await tx.insert(userOrganizations).values({ userId: user!.id, organizationId: orgIds.get(demo.organization)! });
  }
  return orgIds;
}
