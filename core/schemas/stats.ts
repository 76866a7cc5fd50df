import { z } from 'zod';
import { ALL_ORGANIZATIONS, type Entity } from '../permissions';
import { Id } from './common';

/** The statistics `GET stats/{key}` answers (spec 7.1 "root/stats/{key}", issue 6 dashboard). */
export const STATS_KEYS = ['profiles-by-kind-status', 'hits-by-status-over-time', 'cases-by-status', 'task-requests-by-status'] as const;
export type StatsKey = (typeof STATS_KEYS)[number];

/** The entity each statistic counts: reading the statistic needs that entity's Read right (server and dashboard alike). */
export const STATS_ENTITY: Readonly<Record<StatsKey, Entity>> = {
  'profiles-by-kind-status': 'Profiles',
  'hits-by-status-over-time': 'Hits',
  'cases-by-status': 'Cases',
  'task-requests-by-status': 'TaskRequests',
};

export const isStatsKey = (key: string): key is StatsKey => (STATS_KEYS as readonly string[]).includes(key);

/** `orgId`: one organization the user reaches, or `all` (the default): every one they reach. */
export const StatsQuery = z.object({ orgId: z.union([Id, z.literal(ALL_ORGANIZATIONS)]).optional() });
export type StatsQuery = z.infer<typeof StatsQuery>;

/**
 * One statistic as rows × series: each row (a kind, an ISO week, or a single "All" row) holds a
 * count per series (a status). Series with no rows still appear, so a chart's legend is stable.
 */
export const Stats = z
  .object({
    key: z.enum(STATS_KEYS),
    title: z.string(),
    /** What a row is (e.g. "Kind", "Week"). */
    rowLabel: z.string(),
    series: z.array(z.string()),
    rows: z.array(z.object({ label: z.string(), counts: z.record(z.string(), z.number().int().min(0)) })),
  })
  .meta({ id: 'Stats' });
export type Stats = z.infer<typeof Stats>;
