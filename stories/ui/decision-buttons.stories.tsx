/** The decide buttons of a list and their dialog (src/ui/decision-buttons.tsx) over fake calls: decisions taken, a decision refused by the server. */
import type { Meta, StoryObj } from '@storybook/react-vite';
import { ApiError } from '../../src/api/middleware/api-error';
import { DecisionButtons, type TwoWayDecision } from '../../src/ui/decision-buttons';
import { RecordTable } from '../../src/ui/record-table';

interface Request {
  reference: string;
  sampleName: string;
  status: 'Waiting for a decision' | 'Released';
}

const REQUESTS: Request[] = [
  { reference: 'DE-2026-001', sampleName: 'NDNAD-1', status: 'Waiting for a decision' },
  { reference: 'DE-2026-002', sampleName: 'NDNAD-2', status: 'Waiting for a decision' },
  { reference: 'DE-2026-003', sampleName: 'NDNAD-3', status: 'Released' },
];

const decision = (release: (r: Request) => Promise<unknown> = async () => undefined): TwoWayDecision<Request> => ({
  agree: { label: 'Release', title: 'Release the profile’s data?', says: (r) => `Send BKA Wiesbaden (DE) the specimen id, laboratory and genotypes of ${r.sampleName}? This cannot be undone.`, run: release },
  decline: { label: 'Refuse', title: 'Refuse to release?', reasonLabel: 'Reason (the sender is told)', run: async () => undefined },
});

function List({ release }: { release?: (r: Request) => Promise<unknown> }) {
  return (
    <div style={{ padding: '1rem' }}>
      <DecisionButtons decision={decision(release)} onDecided={() => undefined}>
        {(buttonsOf) => (
          <RecordTable columns={['Reference', 'Profile', 'Status']} actions empty="There are no release requests here." isEmpty={false}>
            {REQUESTS.map((r) => (
              <tr key={r.reference}>
                <th scope="row">{r.reference}</th>
                <td>{r.sampleName}</td>
                <td>{r.status}</td>
                <td>{r.status === 'Waiting for a decision' ? buttonsOf(r) : null}</td>
              </tr>
            ))}
          </RecordTable>
        )}
      </DecisionButtons>
    </div>
  );
}

const meta = { title: 'UI/Decision buttons', component: List, parameters: { layout: 'fullscreen' } } satisfies Meta<typeof List>;
export default meta;
type Story = StoryObj<typeof meta>;

/** Release and Refuse on the waiting requests only; Release asks first, Refuse waits for a reason. */
export const Waiting: Story = {};
/** A decision the server refuses (decided meanwhile by someone else): its message above the list. */
export const DecisionFailed: Story = {
  args: { release: async () => Promise.reject(new ApiError(409, { error: 'This release request was already decided' }, 'POST', '/api/release-requests/{id}/release')) },
};
