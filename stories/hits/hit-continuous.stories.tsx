/**
 * A continuous mixture hit in HitView (issue 31): per population both LRs (the full fit under Hp, the scan at Hd's
 * fit), both hypotheses' fitted parameters and "Open in the Continuous mixture calculator"; the populations table names
 * the number LR. Example figures for stories only.
 */
import type { Meta, StoryObj } from '@storybook/react-vite';
import { HitContinuous, type CalculatorPlace } from '../../src/hits/hit-continuous';
import { HitPopulations } from '../../src/hits/hit-populations';
import { StoryRouter } from '../app/story-router';
import { CONTINUOUS_FBI, CONTINUOUS_HIT_CANDIDATE_ID, CONTINUOUS_HIT_STAIN_ID, CONTINUOUS_POPULATIONS } from './continuous-hit-fixtures';
import '../../src/analyses/calculator.css';
import '../../src/hits/hits.css';

const ORG = '6e7f8a9b-0c1d-4e2f-9a3b-5c6d7e8f9a01';
const PLACE = { analysisGroupId: '7f8a9b0c-1d2e-4f3a-8b4c-6d7e8f9a0b12', analysisId: '8a9b0c1d-2e3f-4a4b-9c5d-7e8f9a0b1c23' };
const PREFILL = { stainId: CONTINUOUS_HIT_STAIN_ID, candidateId: CONTINUOUS_HIT_CANDIDATE_ID };

const meta = {
  title: 'Hits/Continuous mixture hit',
  component: HitContinuous,
  args: { orgId: ORG, populations: CONTINUOUS_POPULATIONS, prefill: PREFILL, findCalculator: async (): Promise<CalculatorPlace | null> => PLACE },
  decorators: [
    (Story) => (
      <StoryRouter path={`/${ORG}/hits/x`}>
        <div className="page">
          <Story />
        </div>
      </StoryRouter>
    ),
  ],
} satisfies Meta<typeof HitContinuous>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Two populations: the reported one with both numbers and both fits; the synthetic one where nothing explains the stain under Hp. */
export const TwoPopulations: Story = {};
/** One population only. */
export const OnePopulation: Story = { args: { populations: [CONTINUOUS_FBI] } };
/** The organization has no Continuous mixture analysis: the button says so when pressed. */
export const NoCalculator: Story = { args: { findCalculator: async () => null } };
/** The populations table of the same hit: the number is an LR. */
export const PopulationsTable: Story = { render: () => <HitPopulations populations={CONTINUOUS_POPULATIONS} matchKind="mixture" /> };
