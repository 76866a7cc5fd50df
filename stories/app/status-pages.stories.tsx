import type { Meta, StoryObj } from '@storybook/react-vite';
import { AppLayout } from '../../src/app/layout/app-layout';
import { ForbiddenPage } from '../../src/app/pages/forbidden-page';
import { NoAccessPage } from '../../src/app/pages/no-access-page';
import { NotFoundPage } from '../../src/app/pages/not-found-page';
import { StoryRouter } from './story-router';
import { BERGEN, OSLO, storyReader } from './story-users';

type Page = 'not-found' | 'no-access' | 'forbidden';

function StatusInLayout({ page }: { page: Page }) {
  const orgId = page === 'no-access' ? BERGEN : OSLO;
  return (
    <StoryRouter path={`/${orgId}/users`}>
      <AppLayout me={storyReader} orgId={orgId} subPath="/users" onSignOut={() => undefined}>
        {page === 'not-found' ? <NotFoundPage homeHref={`/${OSLO}`} /> : null}
        {page === 'no-access' ? <NoAccessPage me={storyReader} subPath="/users" /> : null}
        {page === 'forbidden' ? <ForbiddenPage title="Users" /> : null}
      </AppLayout>
    </StoryRouter>
  );
}

const meta = { title: 'App/Pages/Status', component: StatusInLayout } satisfies Meta<typeof StatusInLayout>;
export default meta;
type Story = StoryObj<typeof meta>;

export const NotFound: Story = { args: { page: 'not-found' } };
export const NoAccessToOrganization: Story = { args: { page: 'no-access' } };
export const Forbidden: Story = { args: { page: 'forbidden' } };
