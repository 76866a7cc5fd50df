import type { Meta, StoryObj } from '@storybook/react-vite';
import { ComingPage } from '../../src/app/pages/coming-page';
import { StoryRouter } from './story-router';
import { OSLO } from './story-users';

const meta = {
  title: 'App/Pages/Coming',
  component: ComingPage,
  decorators: [
    (Story) => (
      <StoryRouter path={`/${OSLO}/keyboard-search`}>
        <div style={{ padding: '2rem' }}>
          <Story />
        </div>
      </StoryRouter>
    ),
  ],
} satisfies Meta<typeof ComingPage>;

export default meta;
type Story = StoryObj<typeof meta>;

export const KeyboardSearch: Story = { args: { title: 'Keyboard search', dashboardHref: `/${OSLO}` } };

export const OnTheDashboard: Story = { args: { title: 'Dashboard' } };
