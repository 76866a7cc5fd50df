import { z } from 'zod';
import { ListQuery } from './list';

/** One row of an audit trail (ARCHITECTURE.md "Audit"): who did what, when, with the values before and after. */
export const AuditEntry = z
  .object({
    seq: z.number().int(),
    at: z.iso.datetime(),
    userName: z.string(),
    entity: z.string(),
    entityId: z.string(),
    action: z.string(),
    before: z.unknown(),
    after: z.unknown(),
    hash: z.string(),
  })
  .meta({ id: 'AuditEntry' });
export type AuditEntry = z.infer<typeof AuditEntry>;

/** Audit lists sort by time (newest first by default) and search over entity, action and user. */
export const AuditListQuery = ListQuery;
