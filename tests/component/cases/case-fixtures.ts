import type { Entity, Verb } from '../../../core/permissions';
import type { Case } from '../../../core/schemas/cases';
import { caseTypes, chemistries, profiles } from '../../../server/db/schema';
import { createAccessGroup, createOrganization, createUser } from '../../helpers/factories';
import { createTestApp, type TestApp } from '../../helpers/app';

/** The roles the case screens are tried with (spec 6: Cases Read, Add, Edit, Delete, ChangeSettings, ViewAudit). */
const ROLES = {
  admin: null,
  analyst: {
    Cases: ['Read', 'Add', 'Edit', 'Delete', 'ChangeSettings', 'ViewAudit'],
    Profiles: ['Read', 'Add', 'Edit'],
    Hits: ['Read', 'Publish'],
  },
  reader: { Cases: ['Read'], Profiles: ['Read'], Hits: ['Read'] },
} satisfies Record<string, Partial<Record<Entity, Verb[]>> | null>;
export type Who = keyof typeof ROLES;

export interface CaseWorld {
  t: TestApp;
  orgId: string;
  otherOrgId: string;
  caseTypeId: string;
  chemistryId: string;
  tokens: Record<Who, string>;
  /** The users' e-mails by role (every name is "Test User"; the e-mail tells them apart). */
  emails: Record<Who, string>;
  userIds: Record<Who, string>;
}

/**
 * A fresh server with two organizations (Oslo Lab, Bergen Lab), the case types Burglary and
 * Homicide, one chemistry, and a user per role in Oslo Lab (the admin: scope All).
 */
export async function createCaseWorld(): Promise<CaseWorld> {
  const t = await createTestApp();
  const db = t.database.db;
  const orgId = (await createOrganization(db, 'Oslo Lab')).id;
  const otherOrgId = (await createOrganization(db, 'Bergen Lab')).id;
  const [burglary] = await db.insert(caseTypes).values([{ name: 'Burglary' }, { name: 'Homicide' }]).returning();
  const [chemistry] = await db.insert(chemistries).values({ name: 'GlobalFiler', kind: 'Autosomal' }).returning();
  const tokens = {} as Record<Who, string>;
  const emails = {} as Record<Who, string>;
  const userIds = {} as Record<Who, string>;
  for (const [who, grants] of Object.entries(ROLES) as [Who, (typeof ROLES)[Who]][]) {
    const group = await createAccessGroup(db, grants ? { grants } : { isAdmin: true });
    const user = await createUser(db, { email: `${who}@oslo.test`, scope: grants ? 'Organization' : 'All', accessGroupId: group.id, organizationIds: [orgId] });
    tokens[who] = t.verifier.issue(user.id);
    emails[who] = user.email;
    userIds[who] = user.id;
  }
  return { t, orgId, otherOrgId, caseTypeId: burglary!.id, chemistryId: chemistry!.id, tokens, emails, userIds };
}

/** One API call as `who`; fails the test on an unexpected status. */
export async function call<T>(world: CaseWorld, who: Who, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object): Promise<T> {
  const res = await world.t.app.inject({ method, url, headers: { authorization: `Bearer ${world.tokens[who]}` }, ...(payload ? { payload } : {}) });
  if (res.statusCode >= 300) throw new Error(`${method} ${url} answered ${res.statusCode}: ${res.body}`);
  return (res.body ? res.json() : undefined) as T;
}

/** A Burglary case of Oslo Lab (or `organizationId`), added through the API. */
export const addCase = (world: CaseWorld, caseNumber: string, organizationId = world.orgId, assignedUserIds: string[] = []) =>
  call<Case>(world, 'admin', 'POST', '/api/cases', { caseNumber, caseTypeId: world.caseTypeId, organizationId, assignedUserIds });

/** A pending profile row in a case (what an import leaves), written straight to the database: the profile screens are not under test here. */
export async function addProfileRow(world: CaseWorld, record: Case, profileId: string): Promise<string> {
  const [row] = await world.t.database.db
    .insert(profiles)
    .values({ profileId, caseId: record.id, organizationId: record.organizationId, kind: 'Autosomal', chemistryId: world.chemistryId, sampleType: 'Reference' })
    .returning({ id: profiles.id });
  return row!.id;
}
