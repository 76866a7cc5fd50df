import type { Meta, StoryObj } from '@storybook/react-vite';
import { AppLayout } from '../../src/app/layout/app-layout';
import { LicencePage } from '../../src/app/licence/licence-page';
import { StoryRouter } from './story-router';
import { OSLO, storyReader } from './story-users';

function LicenceGate({ outcome }: { outcome: 'accepted' | 'fails' | 'slow' }) {
  const onAccept = () =>
    outcome === 'fails'
      ? Promise.reject(new Error('500'))
      : new Promise<void>((resolve) => setTimeout(resolve, outcome === 'slow' ? 60_000 : 300));
  return (
    <StoryRouter path={`/${OSLO}`}>
      <AppLayout me={{ ...storyReader, licensesAccepted: false }} orgId={OSLO} subPath="" restricted onSignOut={() => undefined}>
        <LicencePage onAccept={onAccept} />
      </AppLayout>
    </StoryRouter>
  );
}

const meta = { title: 'App/Licence', component: LicenceGate } satisfies Meta<typeof LicenceGate>;
export default meta;
type Story = StoryObj<typeof meta>;

export const NotYetAccepted: Story = { args: { outcome: 'accepted' } };
export const RecordingTakesLong: Story = { args: { outcome: 'slow' } };
export const RecordingFails: Story = { args: { outcome: 'fails' } };
