/**
 * Every state of a family's decisions (machines/familyDecision) a user can reach, drawn by the real family card from
 * a resolved snapshot; "Interactive" runs it on fake calls (activating answers 31 remains searched, one new hit).
 */
import type { Meta, StoryObj } from '@storybook/react-vite';
import type { StateValue } from 'xstate';
import type { Family } from '../../core/schemas/families';
import { decidedFamily, familyDecisionMachine, type FamilyDecisionContext } from '../../machines/familyDecision.machine';
import { FamilyCard } from '../../src/cases/family-card';
import '../../src/cases/cases.css';
import { StoryRouter } from '../app/story-router';
import { OSLO, RECORD } from '../app/story-users';
import { ACTIVE, DRAFT, INACTIVE, storyFamilyCalls } from '../cases/family-fixtures';

const CONFLICT = 'The family found 2 hits: it stays, deactivated, so they remain traceable.';

function CardState({ value, family = DRAFT, context = {} }: { value?: StateValue; family?: Family; context?: Partial<FamilyDecisionContext> }) {
  const startAt = value ? familyDecisionMachine.resolveState({ value, context: { record: decidedFamily(family), allowed: { edit: true }, decision: null, lastDone: null, error: null, ...context } }) : undefined;
  return (
    <StoryRouter path={`/${OSLO}/cases/${RECORD}`}>
      <div style={{ padding: '2rem', maxWidth: '50rem' }}>
        <FamilyCard family={family} caseId={RECORD} calls={storyFamilyCalls([DRAFT, ACTIVE, INACTIVE])} canEdit={context.allowed?.edit ?? true} hitsHref={`/${OSLO}/cases/${RECORD}/hits`} onEdit={() => undefined} onDeleted={() => undefined} {...(startAt ? { startAt } : {})} />
      </div>
    </StoryRouter>
  );
}

const meta = { title: 'Machines/Family decision', component: CardState, args: { value: 'idle' } } satisfies Meta<typeof CardState>;
export default meta;
type Story = StoryObj<typeof meta>;

/** idle, draft: Edit, Activate and Delete. */
export const Draft: Story = { args: { family: DRAFT } };
/** idle, active: Deactivate only. */
export const Active: Story = { args: { family: ACTIVE } };
/** idle, inactive with hits: Edit and Activate; no Delete. */
export const InactiveWithHits: Story = { args: { family: INACTIVE } };
/** idle, without Cases Edit: nothing offered. */
export const ReadOnly: Story = { args: { family: ACTIVE, context: { allowed: { edit: false } } } };
export const ConfirmingActivate: Story = { args: { value: 'confirming', context: { decision: { action: 'activate' } } } };
export const ConfirmingDeactivate: Story = { args: { value: 'confirming', family: ACTIVE, context: { decision: { action: 'deactivate' } } } };
export const ConfirmingDelete: Story = { args: { value: 'confirming', context: { decision: { action: 'delete' } } } };
/** submitting: the organization's remains are being searched. */
export const Searching: Story = { args: { value: 'submitting', context: { decision: { action: 'activate' } } } };
/** idle after activating: what the search found, and the way to the case's pending hits. */
export const Activated: Story = {
  args: { family: ACTIVE, context: { record: { ...decidedFamily(ACTIVE), lastSearch: { searchedProfiles: 31, hitsAdded: 1 } }, lastDone: 'Activated' } },
};
/** conflict: the server refused (409: it found hits, or it changed); only Reload is offered. */
export const Conflict: Story = { args: { value: 'conflict', context: { decision: { action: 'delete' }, error: { status: 409, message: CONFLICT } } } };
export const Reloading: Story = { args: { value: 'reloading', context: { error: { status: 409, message: CONFLICT } } } };
/** failed: a relative still pending (400) or the matcher loading (503); try again or dismiss. */
export const Failed: Story = {
  args: { value: 'failed', context: { decision: { action: 'activate' }, error: { status: 400, message: 'Approve profile MP-SISTER-2 (Full sister) before activating the family.' } } },
};
/** The machine on fake calls, from a draft. */
export const Interactive: Story = { args: { value: undefined } };
