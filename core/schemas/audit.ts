import { z } from 'zod';
import { periodBounds } from '../audit/audit-period';
import { ListQuery } from './list';

/** One row of an audit trail (ARCHITECTURE.md "Audit"): who did what, when, with the values before and after. */
export const AuditEntry = z
  .object({
    seq: z.number().int(),
    at: z.iso.datetime(),
    userName: z.string(),
    entity: z.string(),
    entityId: z.string(),
    /** The record's own name (a profile's sample name, a case's number, a user's name), null when none is known. */
    recordName: z.string().nullable(),
    action: z.string(),
    before: z.unknown(),
    after: z.unknown(),
    /** The names of the records the ids in before/after stand for (users, case types, items, …). */
    names: z.record(z.string(), z.string()),
    hash: z.string(),
  })
  .meta({ id: 'AuditEntry' });
export type AuditEntry = z.infer<typeof AuditEntry>;

/** Audit lists sort by time (newest first by default) and search over entity, action and user. */
export const AuditListQuery = ListQuery;

/** The largest trail one export holds (a PDF of 20,000 rows is some 700 pages): beyond it, a shorter period (a 400 says so). */
export const MAX_AUDIT_EXPORT_ROWS = { csv: 50_000, pdf: 20_000 } as const;

/** An IANA time zone the exports print times in (the reader's, sent by the SPA); UTC when absent. */
const TimeZone = z
  .string()
  .max(64)
  .refine(
    (zone) => {
      try {
        new Intl.DateTimeFormat('en-US', { timeZone: zone });
        return true;
      } catch {
        return false;
      }
    },
    { message: 'An IANA time zone such as Europe/Vienna or UTC' },
  );

/** A trail export: CSV or PDF, with times in `timeZone`. */
export const AuditExportQuery = z.object({
  format: z.enum(['csv', 'pdf']).default('csv'),
  timeZone: TimeZone.default('UTC'),
});
export type AuditExportQuery = z.infer<typeof AuditExportQuery>;

/** A day (the whole day in the request's time zone) or an instant with its offset. */
const Instant = z.union([z.iso.date(), z.iso.datetime({ offset: true })], { error: 'A date (2026-11-27) or a date and time with its offset' });

/** The trail of a period (administration audit): from–to inclusive, optionally one record type. */
const AuditPeriod = z.object({ from: Instant, to: Instant, entity: z.string().max(100).optional() });

/** Refuses a period that ends before it starts, naming `to`. */
const inOrder = <T extends z.ZodType<{ from: string; to: string; timeZone: string }>>(schema: T) =>
  schema.refine((p) => periodBounds(p, p.timeZone).from < periodBounds(p, p.timeZone).until, { message: 'The period ends before it starts', path: ['to'] });

export const AuditPeriodExportQuery = inOrder(AuditExportQuery.extend(AuditPeriod.shape));
export type AuditPeriodExportQuery = z.infer<typeof AuditPeriodExportQuery>;
export const AuditPeriodListQuery = inOrder(ListQuery.extend(AuditPeriod.shape).extend({ timeZone: AuditExportQuery.shape.timeZone }));
export type AuditPeriodListQuery = z.infer<typeof AuditPeriodListQuery>;
