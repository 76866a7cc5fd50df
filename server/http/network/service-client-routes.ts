import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { desc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { CreateServiceClientBody, CreatedServiceClient, ServiceClient, ServiceClientList } from '../../../core/schemas/network';
import { ErrorBody, Id } from '../../../core/schemas/common';
import { appendAudit } from '../../audit/audit-trail';
import type { Clock } from '../../clock';
import type { Config } from '../../config';
import type { Db } from '../../db/database';
import { onUniqueViolation } from '../../db/errors';
import { organizations, serviceClients } from '../../db/schema';
import { newClientCredentials, type ServiceClientRow } from '../../identity/service-clients';
import { BadRequest, Conflict, NotFound } from '../../errors';
import { auditActor } from '../audit-actor';
import { NETWORK_ADMINISTRATION } from './access';

const tags = ['network'];
const security = [{ bearer: [] }];

const toServiceClient = (r: ServiceClientRow, organizationName: string | null): ServiceClient => ({
  id: r.id,
  name: r.name,
  clientId: r.clientId,
  organizationId: r.organizationId,
  organizationName,
  hasSecret: r.secretHash !== null,
  createdAt: r.createdAt.toISOString(),
  revokedAt: r.revokedAt?.toISOString() ?? null,
});

/** What the audit trail keeps of a client: never the secret, never its hash. */
const audited = (r: ServiceClientRow) => ({ name: r.name, clientId: r.clientId, organizationId: r.organizationId, revokedAt: r.revokedAt?.toISOString() ?? null });

/**
 * Service clients (issue 32): an administrator with scope All creates one for another instance or a script, sees its
 * secret once, and revokes it (its tokens are refused from the next call). Every create and revoke is audited.
 */
export const serviceClientRoutes: FastifyPluginAsyncZod<{ db: Db; clock: Clock; config: Config }> = async (app, { db, clock, config }) => {
  const withOrganization = () =>
    db.select({ client: serviceClients, organizationName: organizations.name }).from(serviceClients).leftJoin(organizations, eq(organizations.id, serviceClients.organizationId));

  app.get(
    '/service-clients',
    {
      config: { access: NETWORK_ADMINISTRATION },
      schema: { tags, summary: 'Service clients (OAuth 2 client credentials), newest first, revoked ones included; never a secret', security, response: { 200: ServiceClientList, 401: ErrorBody, 403: ErrorBody } },
    },
    async () => ({ items: (await withOrganization().orderBy(desc(serviceClients.createdAt))).map((r) => toServiceClient(r.client, r.organizationName)) }),
  );

  app.post(
    '/service-clients',
    {
      config: { access: NETWORK_ADMINISTRATION },
      schema: {
        tags,
        summary: 'Create a service client; its secret is in this answer only',
        security,
        body: CreateServiceClientBody,
        response: { 201: CreatedServiceClient, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 409: ErrorBody },
      },
    },
    async (request, reply) => {
      const { name, organizationId, externalClientId } = request.body;
      const external = config.identity.kind === 'external';
      if (external && !externalClientId) throw new BadRequest('Name the client id your identity provider issued for this client', [{ path: '/externalClientId', message: 'Required with an external identity provider' }]);
      if (!external && externalClientId) throw new BadRequest('This instance issues its own client ids: leave the external client id out', [{ path: '/externalClientId', message: 'Only with an external identity provider' }]);
      if (externalClientId === config.identity.clientId) throw new BadRequest('That is the sign-in client of this application, not a service client', [{ path: '/externalClientId', message: 'Another client id' }]);
      const [organization] = organizationId ? await db.select().from(organizations).where(eq(organizations.id, organizationId)) : [];
      if (organizationId && !organization) throw new BadRequest('No such organization', [{ path: '/organizationId', message: 'Choose an existing organization' }]);
      const credentials = external ? { clientId: externalClientId!, secret: null, secretHash: null } : newClientCredentials();
      const row = await onUniqueViolation(
        () =>
          db.transaction(async (tx) => {
            const t = tx as unknown as Db;
            const [created] = await t.insert(serviceClients).values({ name, clientId: credentials.clientId, secretHash: credentials.secretHash, organizationId: organizationId ?? null }).returning();
            await appendAudit(t, auditActor(request.user), clock, { entity: 'ServiceClient', entityId: created!.id, action: 'Created', organizationId: organizationId ?? null, after: audited(created!) });
            return created!;
          }),
        () => new Conflict(`A service client named "${name}" (or with client id ${credentials.clientId}) already exists`),
      );
      return reply.code(201).send({ ...toServiceClient(row, organization?.name ?? null), clientSecret: credentials.secret });
    },
  );

  app.post(
    '/service-clients/:id/revoke',
    {
      config: { access: NETWORK_ADMINISTRATION },
      schema: {
        tags,
        summary: 'Revoke a service client: its tokens are refused from the next call and it gets no new one',
        security,
        params: z.object({ id: Id }),
        response: { 200: ServiceClient, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => {
      const [found] = await withOrganization().where(eq(serviceClients.id, request.params.id));
      if (!found) throw new NotFound('No such service client');
      if (found.client.revokedAt) return toServiceClient(found.client, found.organizationName);
      const revoked = await db.transaction(async (tx) => {
        const t = tx as unknown as Db;
        const [changed] = await t.update(serviceClients).set({ revokedAt: clock.now(), updatedAt: clock.now(), version: found.client.version + 1 }).where(eq(serviceClients.id, found.client.id)).returning();
        await appendAudit(t, auditActor(request.user), clock, { entity: 'ServiceClient', entityId: found.client.id, action: 'Revoked', organizationId: found.client.organizationId, before: audited(found.client), after: audited(changed!) });
        return changed!;
      });
      return toServiceClient(revoked, found.organizationName);
    },
  );
};
