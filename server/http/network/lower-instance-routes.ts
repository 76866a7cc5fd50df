import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import { LowerInstanceList, LowerInstance, RegisterLowerInstanceBody } from '../../../core/schemas/network';
import { ErrorBody } from '../../../core/schemas/common';
import { appendAudit } from '../../audit/audit-trail';
import type { Clock } from '../../clock';
import type { Db } from '../../db/database';
import { lowerInstanceOrganizations, lowerInstances, organizations, serviceClients } from '../../db/schema';
import { BadRequest, Conflict } from '../../errors';
import { auditActor } from '../audit-actor';
import { NETWORK_ADMINISTRATION } from './access';

const tags = ['network'];
const security = [{ bearer: [] }];

/** Every lower instance with its service client's name and its laboratories, by name. */
async function listLowerInstances(db: Db, onlyId?: string): Promise<LowerInstance[]> {
  const rows = await db
    .select({ instance: lowerInstances, clientName: serviceClients.name })
    .from(lowerInstances)
    .innerJoin(serviceClients, eq(serviceClients.id, lowerInstances.serviceClientId))
    .where(onlyId ? eq(lowerInstances.id, onlyId) : undefined)
    .orderBy(asc(sql`lower(${lowerInstances.name})`));
  const ids = rows.map((r) => r.instance.id);
  const labs = ids.length
    ? await db
        .select({ instanceId: lowerInstanceOrganizations.lowerInstanceId, id: organizations.id, name: organizations.name })
        .from(lowerInstanceOrganizations)
        .innerJoin(organizations, eq(organizations.id, lowerInstanceOrganizations.organizationId))
        .where(inArray(lowerInstanceOrganizations.lowerInstanceId, ids))
        .orderBy(asc(organizations.name))
    : [];
  return rows.map(({ instance, clientName }) => ({
    id: instance.id,
    name: instance.name,
    serviceClientId: instance.serviceClientId,
    serviceClientName: clientName,
    laboratories: labs.filter((l) => l.instanceId === instance.id).map(({ id, name }) => ({ id, name })),
    createdAt: instance.createdAt.toISOString(),
  }));
}

/**
 * The upper instance's registry of lower instances (issue 32): each signs in as one service client and sends for the
 * laboratories registered with it, which are created here as organizations held for that instance (read-only here).
 */
export const lowerInstanceRoutes: FastifyPluginAsyncZod<{ db: Db; clock: Clock }> = async (app, { db, clock }) => {
  app.get(
    '/network/lower-instances',
    {
      config: { access: NETWORK_ADMINISTRATION },
      schema: { tags, summary: 'The instances below this one, with the laboratories each sends for', security, response: { 200: LowerInstanceList, 401: ErrorBody, 403: ErrorBody } },
    },
    async () => ({ items: await listLowerInstances(db) }),
  );

  app.post(
    '/network/lower-instances',
    {
      config: { access: NETWORK_ADMINISTRATION },
      schema: {
        tags,
        summary: 'Register a lower instance: its service client and its laboratories (created here, read-only)',
        security,
        body: RegisterLowerInstanceBody,
        response: { 201: LowerInstance, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 409: ErrorBody },
      },
    },
    async (request, reply) => {
      const { name, serviceClientId, laboratories } = request.body;
      const [client] = await db.select().from(serviceClients).where(eq(serviceClients.id, serviceClientId));
      if (!client || client.revokedAt) throw new BadRequest(client ? 'That service client was revoked' : 'No such service client', [{ path: '/serviceClientId', message: 'Choose a live service client' }]);
      const lowered = laboratories.map((l) => l.toLowerCase());
      const repeated = laboratories.filter((l, i) => lowered.indexOf(l.toLowerCase()) !== i);
      if (repeated.length) throw new BadRequest(`A laboratory is named twice: ${repeated.join(', ')}`, [{ path: '/laboratories', message: 'Name each laboratory once' }]);
      const taken = await db.select({ name: organizations.name }).from(organizations).where(inArray(sql`lower(${organizations.name})`, lowered));
      if (taken.length) throw new Conflict(`An organization already has the name of ${taken.map((t) => `"${t.name}"`).join(', ')}: a lower instance's laboratory must be new here`);
      const [taker] = await db.select({ name: lowerInstances.name }).from(lowerInstances).where(eq(lowerInstances.serviceClientId, serviceClientId));
      if (taker) throw new Conflict(`The lower instance "${taker.name}" already signs in with that service client`);
      const id = await db.transaction(async (tx) => {
        const t = tx as unknown as Db;
        const [sameName] = await t.select({ id: lowerInstances.id }).from(lowerInstances).where(eq(sql`lower(${lowerInstances.name})`, name.toLowerCase()));
        if (sameName) throw new Conflict(`A lower instance named "${name}" is already registered`);
        const [instance] = await t.insert(lowerInstances).values({ name, serviceClientId }).returning();
        const orgs = await t.insert(organizations).values(laboratories.map((lab) => ({ name: lab }))).returning();
        await t.insert(lowerInstanceOrganizations).values(orgs.map((o) => ({ lowerInstanceId: instance!.id, organizationId: o.id })));
        const actor = auditActor(request.user);
        await appendAudit(
          t,
          actor,
          clock,
          { entity: 'LowerInstance', entityId: instance!.id, action: 'Registered', after: { name, serviceClientId, laboratories: orgs.map((o) => o.name) } },
          ...orgs.map((o) => ({ entity: 'Organization', entityId: o.id, action: 'Created', organizationId: o.id, after: { name: o.name, heldForLowerInstance: name } })),
        );
        return instance!.id;
      });
      return reply.code(201).send((await listLowerInstances(db, id))[0]!);
    },
  );
};
