import { z } from 'zod';
import { ENTITIES, SCOPES, VERBS } from '../permissions';

export const OrganizationRef = z.object({ id: z.uuid(), name: z.string() });

/** GET /api/me: the signed-in user as the server's database knows them (read after sign-in). */
export const Me = z
  .object({
    id: z.uuid(),
    email: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    roleName: z.string(),
    isAdmin: z.boolean(),
    scope: z.enum(SCOPES).nullable(),
    organizations: z.array(OrganizationRef),
    permissions: z.partialRecord(z.enum(ENTITIES), z.array(z.enum(VERBS))),
    licensesAccepted: z.boolean(),
  })
  .meta({ id: 'Me' });
export type Me = z.infer<typeof Me>;

/** GET /api/client-config: what the SPA needs to reach the identity provider (no secrets). */
export const ClientConfig = z
  .object({ authority: z.string(), clientId: z.string(), scope: z.string(), embeddedProvider: z.boolean() })
  .meta({ id: 'ClientConfig' });
export type ClientConfig = z.infer<typeof ClientConfig>;
