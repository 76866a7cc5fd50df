import { z } from 'zod';
import { Id } from './common';

/** An instance's level in the network (issue 32; CODIS LDIS → SDIS → NDIS). */
export const INSTANCE_LEVELS = ['Local', 'State', 'National'] as const;
export const InstanceLevel = z.enum(INSTANCE_LEVELS, { error: 'Choose Local, State or National' });
export type InstanceLevel = z.infer<typeof InstanceLevel>;

const Name = (what: string) => z.string().trim().min(1, `Give the ${what} a name`).max(100, 'At most 100 characters');

export const ServiceClient = z
  .object({
    id: Id,
    name: z.string(),
    clientId: z.string(),
    /** The laboratory it acts for; null: the whole instance. */
    organizationId: Id.nullable(),
    organizationName: z.string().nullable(),
    /** False for a client an external provider issues (its secret is not kept here). */
    hasSecret: z.boolean(),
    createdAt: z.iso.datetime(),
    revokedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'ServiceClient' });
export type ServiceClient = z.infer<typeof ServiceClient>;

export const ServiceClientList = z.object({ items: z.array(ServiceClient) }).meta({ id: 'ServiceClientList' });

export const CreateServiceClientBody = z
  .object({
    name: Name('client'),
    organizationId: Id.nullable().optional(),
    /** Only under an external provider: the client id that provider issued (it keeps the secret). */
    externalClientId: z.string().trim().min(1, 'Name the client id the identity provider issued').max(200, 'At most 200 characters').optional(),
  })
  .meta({ id: 'CreateServiceClientBody' });

/** The new client with its secret, shown this once: only the secret's hash is kept. */
export const CreatedServiceClient = ServiceClient.extend({ clientSecret: z.string().nullable() }).meta({ id: 'CreatedServiceClient' });

/** This instance as another instance sees it. */
export const InstanceIdentity = z.object({ name: z.string(), level: InstanceLevel }).meta({ id: 'InstanceIdentity' });
export type InstanceIdentity = z.infer<typeof InstanceIdentity>;

/** The settings as GET answers them: the upper instance's secret is never returned, only whether one is set. */
export const InstanceSettings = z
  .object({
    name: z.string(),
    level: InstanceLevel,
    upperUrl: z.string().nullable(),
    upperClientId: z.string().nullable(),
    upperClientSecretSet: z.boolean(),
    version: z.number().int(),
  })
  .meta({ id: 'InstanceSettings' });
export type InstanceSettings = z.infer<typeof InstanceSettings>;

const HttpUrl = z
  .string()
  .trim()
  .regex(/^https?:\/\/[^\s/]+(\/[^\s]*)?$/, 'Give the address as http(s)://host[:port]')
  .max(500, 'At most 500 characters');

export const InstanceSettingsBody = z
  .object({
    name: Name('instance'),
    level: InstanceLevel,
    upperUrl: HttpUrl.nullable(),
    upperClientId: z.string().trim().max(200, 'At most 200 characters').nullable(),
    /** Write-only: omitted keeps the stored secret, null removes it. */
    upperClientSecret: z.string().min(1, 'Give the secret, or leave it out to keep the stored one').max(500).nullable().optional(),
    version: z.number().int(),
  })
  .meta({ id: 'InstanceSettingsBody' });

/** What "Test connection" found: the upper instance's identity, or why it could not be reached. */
export const ConnectionTest = z
  .object({ ok: z.boolean(), upper: InstanceIdentity.optional(), error: z.string().optional() })
  .meta({ id: 'ConnectionTest' });
export type ConnectionTest = z.infer<typeof ConnectionTest>;

export const LowerInstance = z
  .object({
    id: Id,
    name: z.string(),
    serviceClientId: Id,
    serviceClientName: z.string(),
    laboratories: z.array(z.object({ id: Id, name: z.string() })),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'LowerInstance' });
export type LowerInstance = z.infer<typeof LowerInstance>;

export const LowerInstanceList = z.object({ items: z.array(LowerInstance) }).meta({ id: 'LowerInstanceList' });

export const RegisterLowerInstanceBody = z
  .object({
    name: Name('instance'),
    serviceClientId: Id,
    laboratories: z
      .array(z.string().trim().min(1, 'A laboratory needs a name').max(100, 'At most 100 characters'))
      .min(1, 'Name at least one laboratory the instance sends for')
      .max(500),
  })
  .meta({ id: 'RegisterLowerInstanceBody' });
