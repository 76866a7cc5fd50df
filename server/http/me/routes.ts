import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { eq } from 'drizzle-orm';
import { ErrorBody } from '../../../core/schemas/common';
import { Me } from '../../../core/schemas/me';
import type { Db } from '../../db/database';
import { users } from '../../db/schema';
import type { Clock } from '../../clock';
import type { AuthenticatedUser } from '../../identity/load-principal';

const toMe = (u: AuthenticatedUser): Me => ({
  id: u.id,
  email: u.email,
  firstName: u.firstName,
  lastName: u.lastName,
  roleName: u.roleName,
  isAdmin: u.isAdmin,
  scope: u.scope,
  organizations: u.organizations,
  permissions: Object.fromEntries(Object.entries(u.permissions).map(([e, verbs]) => [e, [...(verbs ?? [])]])),
  licensesAccepted: u.licensesAcceptedAt !== null,
});

/** GET /api/me and POST /api/accept-licenses: the signed-in user as this server knows them. */
export const meRoutes: FastifyPluginAsyncZod<{ db: Db; clock: Clock }> = async (app, { db, clock }) => {
  app.get(
    '/me',
    {
      config: { access: { signedIn: true } },
      schema: {
        tags: ['session'],
        summary: 'The signed-in user: role, scope, organizations and permissions',
        security: [{ bearer: [] }],
        response: { 200: Me, 401: ErrorBody },
      },
    },
    async (request) => toMe(request.user),
  );

  app.post(
    '/accept-licenses',
    {
      config: { access: { signedIn: true } },
      schema: {
        tags: ['session'],
        summary: 'Records that the signed-in user accepted the licence',
        security: [{ bearer: [] }],
        response: { 200: Me, 401: ErrorBody },
      },
    },
    async (request) => {
      const acceptedAt = request.user.licensesAcceptedAt ?? clock.now();
      if (!request.user.licensesAcceptedAt) {
        await db.update(users).set({ licensesAcceptedAt: acceptedAt }).where(eq(users.id, request.user.id));
      }
      return toMe({ ...request.user, licensesAcceptedAt: acceptedAt });
    },
  );
};

