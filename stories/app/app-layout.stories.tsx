import type { Meta, StoryObj } from '@storybook/react-vite';
import { AppLayout } from '../../src/app/layout/app-layout';
import { BreadcrumbBar } from '../../src/app/layout/breadcrumb-bar';
import { breadcrumbTrail } from '../../src/app/breadcrumbs';
import { ReviewCountsContext } from '../../src/app/review-counts';
import { matchRoute, subPathOf } from '../../src/app/route-match';
import { StoryRouter } from './story-router';
import { OSLO, RECORD, storyAdmin, storyReader } from './story-users';
import type { Me } from '../../core/schemas/me';
import type { ReviewCounts } from '../../core/schemas/review-counts';

interface LayoutStoryArgs {
  me: Me;
  path: string;
  /** What waits for review (issue 18): the navigation's badges. */
  counts?: ReviewCounts;
}

/** The layout as it is drawn for a path: trail and breadcrumbs from the route table. */
function LayoutAt({ me, path, counts }: LayoutStoryArgs) {
  const match = matchRoute(path);
  const trail = match ? breadcrumbTrail(match) : [];
  return (
    <StoryRouter path={path}>
      <ReviewCountsContext.Provider value={counts ?? null}>
        <AppLayout
          me={me}
          orgId={match?.params.orgId ?? OSLO}
          subPath={subPathOf(path)}
          trail={trail.map((c) => c.routeName)}
          breadcrumbs={<BreadcrumbBar trail={trail} />}
          onSignOut={() => undefined}
        >
          <section className="page" aria-labelledby="page-title">
            <h1 id="page-title">{match?.route.title ?? 'Not found'}</h1>
          </section>
        </AppLayout>
      </ReviewCountsContext.Provider>
    </StoryRouter>
  );
}

const meta = {
  title: 'App/Layout',
  component: LayoutAt,
} satisfies Meta<typeof LayoutAt>;

export default meta;
type Story = StoryObj<typeof meta>;

export const AdministratorScopeAll: Story = { args: { me: storyAdmin, path: `/${OSLO}/cases/${RECORD}/items` } };

export const AllOrganizations: Story = { args: { me: storyAdmin, path: '/all/hits/published' } };

export const ReadOnlyGroup: Story = { args: { me: storyReader, path: `/${OSLO}/hits/all` } };

export const NewRecordBreadcrumb: Story = { args: { me: storyAdmin, path: `/${OSLO}/analysis-groups/${RECORD}/analyses/new` } };

export const Dashboard: Story = { args: { me: storyReader, path: `/${OSLO}` } };

/** Issue 18: 12 profiles and 3 hits wait for review, counted beside their entries. */
export const WaitingForReview: Story = { args: { me: storyAdmin, path: `/${OSLO}/cases`, counts: { profilesPending: 12, hitsPending: 3 } } };
