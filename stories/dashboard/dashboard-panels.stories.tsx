import type { Meta, StoryObj } from '@storybook/react-vite';
import type { ComponentProps } from 'react';
import { MembersPanel } from '../../src/dashboard/members-panel';
import { PublishedHitsPanel } from '../../src/dashboard/published-hits-panel';
import { RecentCasesPanel } from '../../src/dashboard/recent-cases-panel';
import { StatsPanel } from '../../src/dashboard/stats-panel';
import { TaskRequestsPanel } from '../../src/dashboard/task-requests-panel';
import '../../src/dashboard/dashboard.css';
import { StoryRouter } from '../app/story-router';
import { OSLO } from '../app/story-users';
import { CASES, failed, loaded, loading, MEMBERS, STATS, STORY_TASK_CALLS, TASKS } from './dashboard-fixtures';

/** Every dashboard panel (spec 2.2) in each state: loading, empty, filled, failed. */
const meta = {
  title: 'Dashboard/Panels',
  decorators: [
    (Story) => (
      <StoryRouter path={`/${OSLO}`}>
        <div style={{ padding: '2rem', maxWidth: '60rem' }}>
          <Story />
        </div>
      </StoryRouter>
    ),
  ],
} satisfies Meta;

export default meta;
type Story = StoryObj<typeof meta>;

const taskProps = (state: ComponentProps<typeof TaskRequestsPanel>['loaded']): ComponentProps<typeof TaskRequestsPanel> => ({
  orgId: OSLO,
  loaded: state,
  organizations: [{ value: OSLO, label: 'Oslo Lab' }],
  canAdd: true,
  canEdit: true,
  calls: STORY_TASK_CALLS,
  onChanged: () => undefined,
});

export const TasksLoading: Story = { render: () => <TaskRequestsPanel {...taskProps(loading())} /> };
export const TasksEmpty: Story = { render: () => <TaskRequestsPanel {...taskProps(loaded([]))} /> };
export const TasksFilled: Story = { render: () => <TaskRequestsPanel {...taskProps(loaded(TASKS))} /> };
export const TasksReadOnly: Story = { render: () => <TaskRequestsPanel {...taskProps(loaded(TASKS))} canAdd={false} canEdit={false} /> };
export const TasksFailed: Story = { render: () => <TaskRequestsPanel {...taskProps(failed())} /> };

export const RecentCasesLoading: Story = { render: () => <RecentCasesPanel orgId={OSLO} loaded={loading()} /> };
export const RecentCasesEmpty: Story = { render: () => <RecentCasesPanel orgId={OSLO} loaded={loaded([])} /> };
export const RecentCasesFilled: Story = { render: () => <RecentCasesPanel orgId={OSLO} loaded={loaded(CASES)} /> };
export const RecentCasesFailed: Story = { render: () => <RecentCasesPanel orgId={OSLO} loaded={failed()} /> };

export const UsersLoading: Story = { render: () => <MembersPanel loaded={loading()} /> };
export const UsersEmpty: Story = { render: () => <MembersPanel loaded={loaded([])} /> };
export const UsersFilled: Story = { render: () => <MembersPanel loaded={loaded(MEMBERS)} /> };
export const UsersFailed: Story = { render: () => <MembersPanel loaded={failed()} /> };

export const StatisticsLoading: Story = { render: () => <StatsPanel loaded={loading()} /> };
export const StatisticsEmpty: Story = { render: () => <StatsPanel loaded={loaded(STATS.map((s) => ({ ...s, rows: [] })))} /> };
export const StatisticsFilled: Story = { render: () => <StatsPanel loaded={loaded(STATS)} /> };
export const StatisticsFailed: Story = { render: () => <StatsPanel loaded={failed()} /> };

const hitsAt = (rows: Awaited<ReturnType<NonNullable<ComponentProps<typeof PublishedHitsPanel>['source']>>>) => async () => rows;
/** Not connected yet: the slot draws nothing. */
export const PublishedHitsNotConnected: Story = { render: () => <PublishedHitsPanel orgId={OSLO} /> };
export const PublishedHitsLoading: Story = { render: () => <PublishedHitsPanel orgId={OSLO} source={() => new Promise(() => undefined)} /> };
export const PublishedHitsEmpty: Story = { render: () => <PublishedHitsPanel orgId={OSLO} source={hitsAt([])} /> };
export const PublishedHitsFilled: Story = {
  render: () => (
    <PublishedHitsPanel
      orgId={OSLO}
      source={hitsAt([{ id: 'h1', date: '2026-02-02T10:00:00.000Z', analysisName: 'Paternity trio', populationName: 'Norwegian', probability: '99.99% (1.23e+6)', download: () => undefined }])}
    />
  ),
};
export const PublishedHitsFailed: Story = { render: () => <PublishedHitsPanel orgId={OSLO} source={() => Promise.reject(new Error('offline'))} /> };
