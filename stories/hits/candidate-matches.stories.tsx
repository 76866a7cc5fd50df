/** The candidate matches table (src/hits/candidate-matches-page.tsx) over fake calls: pending, decided, read-only, empty, a failed decision. */
import type { Meta, StoryObj } from '@storybook/react-vite';
import type { CandidateMatch } from '../../core/schemas/candidate-matches';
import { ApiError } from '../../src/api/middleware/api-error';
import type { CandidateMatchCalls } from '../../src/hits/candidate-matches-api';
import { CandidateMatchTable } from '../../src/hits/candidate-matches-page';
import { StoryRouter } from '../app/story-router';
import { OSLO } from '../app/story-users';

const match = (n: number, over: Partial<CandidateMatch> = {}): CandidateMatch => ({
  id: `70000000-0000-4000-8000-00000000000${n}`,
  version: 1,
  organizationId: OSLO,
  profileId: `60000000-0000-4000-8000-00000000000${n}`,
  sampleName: `OSL-STAIN-${n}`,
  caseId: `80000000-0000-4000-8000-00000000000${n}`,
  caseNumber: `OSL-2026-${n}`,
  upperInstance: 'https://sdis.example.gov',
  counterparts: [{ specimenId: `BRG-OFF-${70 + n}`, laboratory: 'Bergen Lab', instance: 'Instance B' }],
  analysis: 'Identity',
  matchKind: 'identity',
  stringency: { stringency: 'high', comparedMarkers: 20, mismatches: 0, minMarkers: 10, maxMismatches: 0, probability: 1e-20, searchedProfiles: 1_200_000, expectedChanceHits: 1.2e-14 },
  statistics: [{ population: 'Norway', combinedIndex: 2.5e21, probability: '1 in 2.5 sextillion', reported: true }],
  foundAt: '2026-11-28T12:00:00.000Z',
  receivedAt: '2026-11-28T12:00:30.000Z',
  status: 'pending',
  reason: null,
  decidedBy: null,
  decidedAt: null,
  ...over,
});

const MIXED = [
  match(1),
  match(2, { stringency: { ...match(2).stringency!, stringency: 'moderate', comparedMarkers: 12 } }),
  match(3, { status: 'confirmed', decidedBy: 'Kari Nordmann', decidedAt: '2026-11-28T13:00:00.000Z' }),
  match(4, { status: 'rejected', reason: 'Different amelogenin at the laboratory', decidedBy: 'Kari Nordmann', decidedAt: '2026-11-28T13:05:00.000Z' }),
];

const calls = (over: Partial<CandidateMatchCalls> = {}): Pick<CandidateMatchCalls, 'confirm' | 'reject'> => ({
  confirm: async (m) => ({ ...m, status: 'confirmed' }),
  reject: async (m, reason) => ({ ...m, status: 'rejected', reason }),
  ...over,
});

const screen = (matches: CandidateMatch[], canDecide: boolean, c = calls()) => (
  <StoryRouter path={`/${OSLO}/candidate-matches`}>
    <div style={{ padding: '1rem' }}>
      <CandidateMatchTable matches={matches} calls={c} canDecide={canDecide} onDecided={() => undefined} />
    </div>
  </StoryRouter>
);

const meta = { title: 'Hits/Candidate matches', parameters: { layout: 'fullscreen' } } satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

/** Pending first (high and moderate stringency), then a confirmed and a rejected one with its reason; a reviewer's buttons. */
export const Review: Story = { render: () => screen(MIXED, true) };
/** A reader (Hits Read, not Publish): the same list without Confirm or Reject. */
export const ReadOnly: Story = { render: () => screen(MIXED, false) };
/** Nothing sent down yet. */
export const Empty: Story = { render: () => screen([], true) };
/** A decision refused by the server (decided meanwhile by someone else): its message above the table. */
export const DecisionFailed: Story = {
  render: () => screen(MIXED, true, calls({ confirm: async () => Promise.reject(new ApiError(409, { error: 'This candidate match was already confirmed' }, 'POST', '/api/candidate-matches/{id}/confirm')) })),
};
