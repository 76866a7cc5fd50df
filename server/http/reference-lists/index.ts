import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { cases, caseTypes, laboratories, organizations, populationOrganizations, populations, profiles, sampleSources, userOrganizations, users } from '../../db/schema';
import { casesUsing, profilesUsing } from '../records-using';
import { inReachableOrganizations } from '../tenancy';
import { namedListRoutes, nameList } from './routes';
import { heldForLowerInstance } from '../../network/held-organizations';

/** The name-only reference lists of spec 2.7: organizations, case types, sample sources, laboratories. */
export async function registerReferenceLists(api: FastifyInstance, db: Db): Promise<void> {
  await api.register(namedListRoutes, {
    db,
    path: 'organizations',
    table: organizations,
    entity: 'Organizations',
    what: 'organization',
    // Organization scope sees only the organizations the user belongs to (spec 6 tenancy).
    scope: (user) => inReachableOrganizations(organizations.id, user),
    // A lower instance's laboratory is its own: the upper instance holds it read-only (issue 32).
    readOnly: heldForLowerInstance,
    inUse: async (db, id) => {
      const members = await db
        .select({ email: users.email })
        .from(userOrganizations)
        .innerJoin(users, eq(users.id, userOrganizations.userId))
        .where(eq(userOrganizations.organizationId, id))
        .orderBy(users.email);
      if (members.length > 0) return `it still has users (${nameList(members.map((m) => m.email), members.length)})`;
      const pops = await db
        .select({ name: populations.name })
        .from(populationOrganizations)
        .innerJoin(populations, eq(populations.id, populationOrganizations.populationId))
        .where(eq(populationOrganizations.organizationId, id));
      if (pops.length > 0) return `populations still use it (${nameList(pops.map((p) => p.name), pops.length)})`;
      return casesUsing(db, cases.organizationId, id);
    },
  });
  await api.register(namedListRoutes, { db, path: 'case-types', table: caseTypes, entity: 'CaseTypes', what: 'case type', inUse: (db, id) => casesUsing(db, cases.caseTypeId, id) });
  await api.register(namedListRoutes, {
    db,
    path: 'sample-sources',
    table: sampleSources,
    entity: 'SampleSources',
    what: 'sample source',
    inUse: (db, id) => profilesUsing(db, profiles.sampleSourceId, id),
  });
  await api.register(namedListRoutes, { db, path: 'laboratories', table: laboratories, entity: 'Laboratories', what: 'laboratory', inUse: (db, id) => profilesUsing(db, profiles.laboratoryId, id) });
}
