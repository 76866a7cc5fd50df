import { count, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { CASE_STATUSES } from '../../../core/schemas/cases';
import type { Stats, StatsKey } from '../../../core/schemas/stats';
import { TASK_STATUSES } from '../../../core/schemas/task-requests';
import type { Db } from '../../db/database';
import { cases, hits, profiles, taskRequests } from '../../db/schema';

/** Which organizations a statistic counts: a condition on a table's organization column. */
export type OrganizationScope = (column: PgColumn) => SQL | undefined;

const PROFILE_STATUSES = ['pending', 'approved', 'rejected'] as const;
const HIT_STATUSES = ['pending', 'published', 'rejected'] as const;
const PROFILE_KINDS = [
  ['Autosomal', 'Autosomal'],
  ['YStr', 'Y-STR'],
] as const;

type Counted = { row: string; series: string; n: number };

/** Rows × series from grouped counts; every listed row and series appears, counted or not. */
function tabulate(counted: readonly Counted[], rows: readonly (readonly [string, string])[], series: readonly string[]): Stats['rows'] {
  const zero = () => Object.fromEntries(series.map((s) => [s, 0]));
  const table = new Map(rows.map(([value, label]) => [value, { label, counts: zero() }]));
  for (const c of counted) {
    const row = table.get(c.row) ?? table.set(c.row, { label: c.row, counts: zero() }).get(c.row)!;
    row.counts[c.series] = (row.counts[c.series] ?? 0) + c.n;
  }
  return [...table.values()];
}

/** One count per status of a table, as a single row. */
async function byStatus(db: Db, table: typeof cases | typeof taskRequests, where: SQL | undefined, rowLabel: string, statuses: readonly string[]) {
  const rows = await db.select({ series: table.status, n: count() }).from(table).where(where).groupBy(table.status);
  return tabulate(
    rows.map((r) => ({ row: 'all', series: r.series, n: r.n })),
    [['all', rowLabel]],
    statuses,
  );
}

/** Hits per ISO week (UTC, e.g. 2026-W03) and status, oldest week first. */
async function hitsByWeek(db: Db, scope: OrganizationScope): Promise<Counted[]> {
  const week = sql<string>`to_char(date_trunc('week', ${hits.createdAt} at time zone 'UTC'), 'IYYY-"W"IW')`;
  return db.select({ row: week, series: hits.status, n: count() }).from(hits).where(scope(hits.organizationId)).groupBy(week, hits.status).orderBy(week);
}

/** Each statistic of `GET stats/{key}`, counted within `scope`. */
export async function computeStats(db: Db, key: StatsKey, scope: OrganizationScope): Promise<Stats> {
  switch (key) {
    case 'profiles-by-kind-status': {
      const rows = await db
        .select({ row: profiles.kind, series: profiles.status, n: count() })
        .from(profiles)
        .where(scope(profiles.organizationId))
        .groupBy(profiles.kind, profiles.status);
      return { key, title: 'Profiles by kind and status', rowLabel: 'Kind', series: [...PROFILE_STATUSES], rows: tabulate(rows, PROFILE_KINDS, PROFILE_STATUSES) };
    }
    case 'hits-by-status-over-time': {
      const counted = await hitsByWeek(db, scope);
      return { key, title: 'Hits by status per week', rowLabel: 'Week', series: [...HIT_STATUSES], rows: tabulate(counted, [], HIT_STATUSES) };
    }
    case 'cases-by-status':
      return { key, title: 'Cases by status', rowLabel: 'Cases', series: [...CASE_STATUSES], rows: await byStatus(db, cases, scope(cases.organizationId), 'Cases', CASE_STATUSES) };
    case 'task-requests-by-status':
      return {
        key,
        title: 'Task requests by status',
        rowLabel: 'Task requests',
        series: [...TASK_STATUSES],
        rows: await byStatus(db, taskRequests, scope(taskRequests.organizationId), 'Task requests', TASK_STATUSES),
      };
  }
}
