import { useMemo, useState } from 'react';
import { ALL_ORGANIZATIONS, can } from '../../core/permissions';
import { STATS_ENTITY, STATS_KEYS } from '../../core/schemas/stats';
import type { TaskRequest } from '../../core/schemas/task-requests';
import { useApi } from '../app/api-provider';
import { useShellSession } from '../app/shell-session';
import { usePrincipal } from '../app/use-principal';
import { hitsApi } from '../hits/hits-api';
import { useLoaded } from '../profiles/use-loaded';
import { dashboardApi } from './dashboard-api';
import { MembersPanel } from './members-panel';
import { PublishedHitsPanel, type PublishedHitsSource } from './published-hits-panel';
import { RecentCasesPanel } from './recent-cases-panel';
import { ReviewWaitingPanel } from './review-waiting-panel';
import { StatsPanel } from './stats-panel';
import { TaskRequestsPanel, type TaskCalls } from './task-requests-panel';
import './dashboard.css';

/**
 * The Dashboard `/{orgId}` (spec 2.2): task requests, recent cases, the organization's users,
 * published hits and statistics. Each panel shows only with the right it needs (core/permissions);
 * a task change reads the tasks and the counts again.
 */
export function DashboardPage({ orgId }: { orgId: string }) {
  const api = useApi();
  const calls = useMemo(() => dashboardApi(api), [api]);
  const publishedHits = useMemo<PublishedHitsSource>(() => {
    const hitCalls = hitsApi(api);
    return async (org) =>
      (await calls.publishedHits(org)).map((h) => ({
        id: h.id,
        date: h.date,
        analysisName: h.analysisName,
        populationName: h.populationName,
        probability: h.probability,
        // A failed download was already reported by the API client (spec 8.1).
        download: () => void hitCalls.download(h.id).catch(() => undefined),
      }));
  }, [api, calls]);
  const principal = usePrincipal();
  const { me } = useShellSession();
  const [revision, setRevision] = useState(0);
  const changed = () => setRevision((r) => r + 1);

  const may = {
    tasks: can(principal, 'TaskRequests', 'Read'),
    addTask: can(principal, 'TaskRequests', 'Add'),
    editTask: can(principal, 'TaskRequests', 'Edit'),
    cases: can(principal, 'Cases', 'Read'),
    hits: can(principal, 'Hits', 'Read'),
  };
  const statsKeys = STATS_KEYS.filter((key) => can(principal, STATS_ENTITY[key], 'Read'));
  const oneOrganization = orgId !== ALL_ORGANIZATIONS;

  const tasks = useLoaded(`${orgId}/${revision}`, () => (may.tasks ? calls.activeTasks(orgId).then((l) => l.items) : Promise.resolve([])));
  const cases = useLoaded(orgId, () => (may.cases ? calls.recentCases(orgId) : Promise.resolve([])));
  const members = useLoaded(orgId, () => (may.tasks && oneOrganization ? calls.members(orgId) : Promise.resolve([])));
  const stats = useLoaded(`${orgId}/${revision}`, () => Promise.all(statsKeys.map((key) => calls.stats(key, orgId))));

  // A new task belongs to this organization, or at `all` to one of the user's own.
  const organizations = oneOrganization
    ? [{ value: orgId, label: me.organizations.find((o) => o.id === orgId)?.name ?? 'This organization' }]
    : me.organizations.map((o) => ({ value: o.id, label: o.name }));

  const taskCalls: TaskCalls = {
    save: (values, task: TaskRequest | null) => {
      if (!task) return calls.addTask(values);
      // An edit keeps the task's organization: the update body has none.
      const { organizationId: _kept, ...edit } = values;
      return calls.updateTask(task.id, { ...edit, version: task.version });
    },
    move: (task, status) => calls.moveTask(task.id, status, task.version),
    loadOptions: async (organizationId) => {
      const [people, recent] = await Promise.all([calls.members(organizationId), may.cases ? calls.recentCases(organizationId, 100) : Promise.resolve(null)]);
      return {
        // Two people may share a name: the e-mail tells them apart.
        members: people.map((m) => ({ value: m.id, label: `${m.name} (${m.email})` })),
        cases: recent ? recent.map((c) => ({ value: c.id, label: c.caseNumber })) : null,
      };
    },
  };

  return (
    <div className="page dashboard">
      <h1>Dashboard</h1>
      <ReviewWaitingPanel orgId={orgId} />
      <div className="dashboard__grid">
        {may.tasks ? (
          <TaskRequestsPanel orgId={orgId} loaded={tasks} organizations={organizations} canAdd={may.addTask} canEdit={may.editTask} calls={taskCalls} onChanged={changed} />
        ) : null}
        {may.cases ? <RecentCasesPanel orgId={orgId} loaded={cases} /> : null}
        {may.tasks && oneOrganization ? <MembersPanel loaded={members} /> : null}
        {may.hits ? <PublishedHitsPanel orgId={orgId} source={publishedHits} /> : null}
        {statsKeys.length > 0 ? <StatsPanel loaded={stats} /> : null}
      </div>
    </div>
  );
}
