import { eq } from 'drizzle-orm';
import type { Db } from '../db/database';
import { serviceClients } from '../db/schema';
import type { AuthenticatedUser } from './load-principal';

/**
 * The principal a service client's token acts as (issue 32): no access group, no scope, so `can` of
 * core/permissions.ts refuses it everything; only routes whose rule admits services (the network calls) let it in.
 */
export async function loadServicePrincipal(db: Db, clientId: string): Promise<AuthenticatedUser | { refused: string } | undefined> {
  const [row] = await db.select().from(serviceClients).where(eq(serviceClients.clientId, clientId));
  if (!row) return undefined;
  if (row.revokedAt) return { refused: 'This service client was revoked' };
  return {
    id: row.id,
    email: '',
    firstName: `Service client ${row.name}`,
    lastName: '',
    roleName: 'Service client',
    isAdmin: false,
    scope: null,
    organizationIds: row.organizationId ? [row.organizationId] : [],
    organizations: [],
    permissions: {},
    lockedAt: null,
    licensesAcceptedAt: row.createdAt,
    service: { serviceClientId: row.id, clientId: row.clientId, name: row.name, organizationId: row.organizationId },
  };
}
