/**
 * Every state of the live updates a page follows (issue 12), drawn from a resolved snapshot with the
 * status line the Hits page shows. "Interactive" runs the machine over a fake stream that opens after
 * a second and reports a change of hits every three seconds; the buttons drop the connection or
 * retry at once, to watch the pauses grow (1 s, 2 s, 4 s …).
 */
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useActor } from '@xstate/react';
import { useEffect, useMemo, useState } from 'react';
import { fromCallback, type StateValue } from 'xstate';
import type { OrganizationChange } from '../../core/schemas/organization-events';
import { liveUpdatesMachine, retryDelay, type LiveUpdatesContext, type LiveUpdatesEvent, type LiveUpdatesInput } from '../../machines/liveUpdates.machine';
import { LiveStatusNote } from '../../src/app/live-status-note';
import { liveStatusOf } from '../../src/app/organization-events';

const ORG = '11111111-1111-4111-8111-111111111111';
const base: LiveUpdatesContext = { orgId: ORG, failures: 0, lastError: null, refusedStatus: null };

/** A stream that opens after a second and says the hits changed every three seconds. */
const fakeStream = fromCallback<LiveUpdatesEvent, LiveUpdatesInput>(({ sendBack }) => {
  const opening = setTimeout(() => sendBack({ type: 'stream.open' }), 1000);
  const changes = setInterval(() => sendBack({ type: 'stream.change', change: 'hits' }), 3000);
  return () => {
    clearTimeout(opening);
    clearInterval(changes);
  };
});
/** A stream that never reports: the drawn state stays as resolved. */
const stillStream = fromCallback<LiveUpdatesEvent, LiveUpdatesInput>(() => undefined);

function LiveUpdatesDemo({ value, context, interactive = false }: { value?: StateValue; context?: Partial<LiveUpdatesContext>; interactive?: boolean }) {
  const logic = useMemo(() => liveUpdatesMachine.provide({ actors: { stream: interactive ? fakeStream : stillStream } }), [interactive]);
  const snapshot = useMemo(() => (value ? logic.resolveState({ value, context: { ...base, ...context } }) : undefined), [logic, value, context]);
  const [heard, setHeard] = useState<OrganizationChange[]>([]);
  const [state, send, actor] = useActor(logic, { input: { orgId: ORG }, ...(snapshot ? { snapshot } : {}) });
  useEffect(() => {
    const subscription = actor.on('organization.changed', (e) => setHeard((h) => [...h.slice(-4), e.change]));
    return () => subscription.unsubscribe();
  }, [actor]);
  const { failures, lastError, refusedStatus } = state.context;
  return (
    <section className="page" style={{ margin: '1rem', maxWidth: '40rem' }}>
      <h1>Hits to review</h1>
      <LiveStatusNote status={liveStatusOf(state)} />
      <p className="field__hint">
        Machine state: <strong>{JSON.stringify(state.value)}</strong> · status: <strong>{liveStatusOf(state)}</strong>
      </p>
      <ul className="field__hint">
        <li>Failures in a row: {failures}{state.matches('waiting') ? `, next try in ${retryDelay(failures) / 1000} s` : ''}</li>
        {lastError ? <li>Last error: {lastError}</li> : null}
        {refusedStatus ? <li>Refused with HTTP {refusedStatus}: the page reads on its own</li> : null}
        <li>Lists told to read again: {heard.length === 0 ? 'none yet' : heard.join(', ')}</li>
      </ul>
      {interactive ? (
        <p>
          <button type="button" className="button" onClick={() => send({ type: 'stream.lost', reason: 'The connection dropped' })} disabled={!state.matches('streaming')}>
            Drop the connection
          </button>{' '}
          <button type="button" className="button" onClick={() => send({ type: 'connection.retry' })} disabled={!state.can({ type: 'connection.retry' })}>
            Retry now
          </button>
        </p>
      ) : null}
    </section>
  );
}

const meta = { title: 'Machines/Live updates', component: LiveUpdatesDemo } satisfies Meta<typeof LiveUpdatesDemo>;
export default meta;
type Story = StoryObj<typeof meta>;

/** streaming.connecting: the request is out; the lists read on their own meanwhile. */
export const Connecting: Story = { args: { value: { streaming: 'connecting' } } };

/** streaming.open: changes are heard; no status line. */
export const Open: Story = { args: { value: { streaming: 'open' } } };

/** streaming.connecting after failures: the status line says the lists may be behind. */
export const Reconnecting: Story = { args: { value: { streaming: 'connecting' }, context: { failures: 2, lastError: 'The server ended the stream' } } };

/** waiting: the connection was lost three times in a row; the next try is 4 s away. */
export const Waiting: Story = { args: { value: 'waiting', context: { failures: 3, lastError: 'Failed to fetch' } } };

/** refused: the server will not stream this organization to this user (403); never retried. */
export const Refused: Story = { args: { value: 'refused', context: { refusedStatus: 403 } } };

/** The machine running over a fake stream. */
export const Interactive: Story = { args: { interactive: true } };
