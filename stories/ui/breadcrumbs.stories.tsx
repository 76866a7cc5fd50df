import type { Meta, StoryObj } from '@storybook/react-vite';
import { BreadcrumbBar, type BreadcrumbNameLookup } from '../../src/app/layout/breadcrumb-bar';
import { breadcrumbTrail } from '../../src/app/breadcrumbs';
import { matchRoute } from '../../src/app/route-match';
import { StoryRouter } from '../app/story-router';
import { OSLO, RECORD } from '../app/story-users';

const path = `/${OSLO}/analysis-groups/${RECORD}/analyses/${RECORD}`;

function Trail({ lookup }: { lookup: 'none' | 'names' | 'fails' | 'new' }) {
  const here = lookup === 'new' ? `/${OSLO}/analysis-groups/${RECORD}/analyses/new` : path;
  const lookupName: BreadcrumbNameLookup | undefined =
    lookup === 'names'
      ? ({ routeName }) => Promise.resolve(routeName === 'AnalysisGroupEdit' ? 'Paternity' : 'Duo paternity index')
      : lookup === 'fails'
        ? () => Promise.reject(new Error('404'))
        : undefined;
  return (
    <StoryRouter path={here}>
      <div style={{ padding: '2rem' }}>
        <BreadcrumbBar trail={breadcrumbTrail(matchRoute(here)!)} lookupName={lookupName} />
      </div>
    </StoryRouter>
  );
}

const meta = { title: 'UI/Breadcrumbs', component: Trail } satisfies Meta<typeof Trail>;
export default meta;
type Story = StoryObj<typeof meta>;

export const IdsWithoutLookup: Story = { args: { lookup: 'none' } };
export const NamesLookedUp: Story = { args: { lookup: 'names' } };
export const LookupFailsShowsNa: Story = { args: { lookup: 'fails' } };
export const NewRecord: Story = { args: { lookup: 'new' } };
