/**
 * The families of a case (issue 16) as the case page shows them under its involved parties, on fake calls
 * (stories/cases/family-fixtures.ts): loading, none, several, read-only, failed; the form adding and changing one.
 * In the form, a name containing "refuse" draws the server's 400 at the sister's profile.
 */
import type { Meta, StoryObj } from '@storybook/react-vite';
import { CaseFamilies } from '../../src/cases/case-families';
import { FamilyFormPanel } from '../../src/cases/family-form';
import '../../src/cases/cases.css';
import { StoryRouter } from '../app/story-router';
import { OSLO, RECORD } from '../app/story-users';
import { ACTIVE, CHOICES, DRAFT, INACTIVE, PENDING_RELATIVE, storyFamilyCalls } from './family-fixtures';

const HITS = `/${OSLO}/cases/${RECORD}/hits`;
const families = (list: Parameters<typeof storyFamilyCalls>[0], canEdit = true) => (
  <CaseFamilies caseId={RECORD} organizationId={OSLO} calls={storyFamilyCalls(list)} canEdit={canEdit} hitsHref={HITS} />
);

const meta = {
  title: 'Cases/Families',
  decorators: [
    (Story) => (
      <StoryRouter path={`/${OSLO}/cases/${RECORD}`}>
        <div style={{ padding: '2rem', maxWidth: '60rem' }}>
          <Story />
        </div>
      </StoryRouter>
    ),
  ],
} satisfies Meta;
export default meta;
type Story = StoryObj<typeof meta>;

export const Loading: Story = { render: () => families('loading') };
/** None yet: Add family. */
export const Empty: Story = { render: () => families([]) };
/** A draft, an active family with a hit, an inactive one with hits (no Delete), one whose sister is still pending; Add family opens the form. */
export const Listed: Story = { render: () => families([DRAFT, ACTIVE, INACTIVE, PENDING_RELATIVE]) };
/** Without Cases Edit: the list only. */
export const ReadOnly: Story = { render: () => families([DRAFT, ACTIVE], false) };
export const Failed: Story = { render: () => families('failed') };

/** The form adding a family: choose the shape to place a profile per relative (the pedigree drawn); the threshold follows the analysis. */
export const AddForm: Story = { render: () => <FamilyFormPanel caseId={RECORD} family={null} choices={CHOICES} calls={storyFamilyCalls()} onSaved={() => undefined} onCancel={() => undefined} /> };
/** The form changing a draft family: its relatives, populations and threshold as saved. */
export const EditForm: Story = { render: () => <FamilyFormPanel caseId={RECORD} family={DRAFT} choices={CHOICES} calls={storyFamilyCalls()} onSaved={() => undefined} onCancel={() => undefined} /> };
/** The form when the case has no profile and no population is shared. */
export const FormWithoutChoices: Story = {
  render: () => <FamilyFormPanel caseId={RECORD} family={null} choices={{ ...CHOICES, profiles: [], populations: [] }} calls={storyFamilyCalls()} onSaved={() => undefined} onCancel={() => undefined} />,
};
