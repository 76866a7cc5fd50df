import { z } from 'zod';
import { ENTITIES, VERBS } from '../permissions';
import { Id } from './common';
import { requiredText } from './named-record';

const unknownEntities = (issue: { code: string; keys?: string[] }) =>
  issue.code === 'unrecognized_keys' && issue.keys
    ? `Unknown entity ${issue.keys.map((k) => `"${k}"`).join(', ')}; the entities are ${ENTITIES.join(', ')}`
    : undefined;

/**
 * A role's grants: entity → verbs, over core/permissions.ts ENTITIES × VERBS only. An unknown
 * entity or verb is refused with a message naming it (the 400's details).
 */
export const PermissionGrants = z.partialRecord(
  z.enum(ENTITIES, { error: (issue) => `Unknown entity "${String(issue.input)}"` }),
  z.array(z.enum(VERBS, { error: (issue) => `Unknown verb "${String(issue.input)}"; the verbs are ${VERBS.join(', ')}` })),
  // A partial record reports keys outside the enum as unrecognized_keys, which its typings omit.
  { error: (issue) => unknownEntities(issue as { code: string; keys?: string[] }) },
);
export type PermissionGrants = z.infer<typeof PermissionGrants>;

/** What the role form sends when adding or changing a role (spec 3 AccessGroup). */
export const AccessGroupInput = z.object({ name: requiredText(), isAdmin: z.boolean(), permissions: PermissionGrants });
export type AccessGroupInput = z.infer<typeof AccessGroupInput>;

/** A row of the Roles table (spec 2.7: Name, Admin). */
export const AccessGroupSummary = z
  .object({ id: Id, name: z.string(), isAdmin: z.boolean(), version: z.number().int() })
  .meta({ id: 'AccessGroupSummary' });
export type AccessGroupSummary = z.infer<typeof AccessGroupSummary>;

/** One role with its permission matrix. */
export const AccessGroup = z
  .object({ id: Id, name: z.string(), isAdmin: z.boolean(), permissions: PermissionGrants, version: z.number().int(), createdAt: z.iso.datetime() })
  .meta({ id: 'AccessGroup' });
export type AccessGroup = z.infer<typeof AccessGroup>;
