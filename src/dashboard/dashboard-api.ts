import { ALL_ORGANIZATIONS } from '../../core/permissions';
import type { Case } from '../../core/schemas/cases';
import type { HitSummary } from '../../core/schemas/hits';
import type { ListResult } from '../../core/schemas/list';
import type { Stats, StatsKey } from '../../core/schemas/stats';
import type { OrganizationMember, TaskRequest, TaskRequestInput, TaskStatus, UpdateTaskRequestBody } from '../../core/schemas/task-requests';
import type { ApiClient } from '../api/client';
import { unwrap } from '../api/unwrap';

/** Statuses the dashboard's task table shows: the work still to do. */
export const ACTIVE_TASK_STATUSES = 'open,in-progress';

/** How many published hits the dashboard lists; the Hits page has the rest. */
export const PUBLISHED_HITS_SHOWN = 10;

/** The dashboard's calls (spec 2.2, 7.1: task requests, organizations/{id}/cases, organizations/{id}/hits, stats/{key}). */
export function dashboardApi(api: ApiClient) {
  const byId = (id: string) => ({ params: { path: { id } } });
  return {
    /** Open and in-progress tasks of the organization, or of every one reached when orgId is `all`. */
    activeTasks: (orgId: string): Promise<ListResult<TaskRequest>> => {
      const query = { status: ACTIVE_TASK_STATUSES, sort: 'updatedAt:desc', pageSize: 100 };
      return orgId === ALL_ORGANIZATIONS
        ? unwrap(api.GET('/api/task-requests', { params: { query } }))
        : unwrap(api.GET('/api/organizations/{orgId}/task-requests', { params: { path: { orgId }, query } }));
    },
    addTask: (body: TaskRequestInput): Promise<TaskRequest> => unwrap(api.POST('/api/task-requests', { body })),
    updateTask: (id: string, body: UpdateTaskRequestBody): Promise<TaskRequest> => unwrap(api.PUT('/api/task-requests/{id}', { ...byId(id), body })),
    moveTask: (id: string, status: TaskStatus, version: number): Promise<TaskRequest> =>
      unwrap(api.PUT('/api/task-requests/{id}/status', { ...byId(id), body: { status, version } })),
    members: async (orgId: string): Promise<OrganizationMember[]> => (await unwrap(api.GET('/api/organizations/{orgId}/members', { params: { path: { orgId } } }))).items,
    /** The last `count` cases changed, newest first. */
    recentCases: async (orgId: string, count = 10): Promise<Case[]> => {
      const query = { sort: 'updatedAt:desc', pageSize: count };
      const list =
        orgId === ALL_ORGANIZATIONS
          ? await unwrap(api.GET('/api/cases', { params: { query } }))
          : await unwrap(api.GET('/api/organizations/{orgId}/cases', { params: { path: { orgId }, query } }));
      return list.items;
    },
    /**
     * The last hits published, newest decision first. Read from the All list filtered by status: it
     * needs only Hits Read, the right the panel shows with (the Published tab's list needs Hits
     * Publish). At `all` the server lists every organization the user reaches.
     */
    publishedHits: async (orgId: string, count = PUBLISHED_HITS_SHOWN): Promise<HitSummary[]> => {
      const query = { filter: JSON.stringify({ status: 'published' }), sort: 'updatedAt:desc', pageSize: count };
      return (await unwrap(api.GET('/api/organizations/{orgId}/hits', { params: { path: { orgId }, query } }))).items;
    },
    stats: (key: StatsKey, orgId: string): Promise<Stats> => unwrap(api.GET('/api/stats/{key}', { params: { path: { key }, query: { orgId } } })),
  };
}

export type DashboardCalls = ReturnType<typeof dashboardApi>;
