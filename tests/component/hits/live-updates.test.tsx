/**
 * Issue 12: the hit list and the search panel read again when the organization's event stream says
 * something changed, whoever changed it, with no reload. The stream is faked at fetch: the real
 * parser, machine and hub run over a body the test writes to.
 */
import { render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { HitSummary } from '../../../core/schemas/hits';
import type { Me } from '../../../core/schemas/me';
import type { SearchJob } from '../../../core/schemas/searches';
import { liveUpdatesMachine } from '../../../machines/liveUpdates.machine';
import { ApiContext } from '../../../src/app/api-provider';
import { eventStreamActor, type OpenEventStream } from '../../../src/app/event-stream';
import { createOrganizationEventHub, OrganizationEventsContext, type OrganizationEventHub } from '../../../src/app/organization-events';
import { ShellSessionContext } from '../../../src/app/shell-session';
import { HitList } from '../../../src/hits/hit-list';
import { SEARCH_POLL_MS, SearchProgress } from '../../../src/hits/search-progress';
import { fakeApiClient, OSLO, userWith } from '../app/shell-fixtures';

vi.setConfig({ testTimeout: 30_000 });

const REVIEWER = userWith({ Hits: ['Read', 'Publish'], Profiles: ['Read'] });

const hit = (n: number): HitSummary =>
  ({
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    organizationId: OSLO,
    date: '2026-11-20T10:00:00.000Z',
    status: 'pending',
    analysisName: 'Identity',
    probability: '99.99% (CI 2.50e+15)',
    populationName: 'FBI 2015 Caucasian',
    profiles: [{ role: 'Evidence', position: 0, profileId: OSLO, sampleName: `E-${n}`, caseId: OSLO, caseNumber: 'CASE-1', organizationId: OSLO }],
  }) as unknown as HitSummary;

/** An event stream the test writes to, as the server would. */
function fakeStreams(opts: { answer?: Promise<void> } = {}) {
  const opened: { orgId: string; write(text: string): void; end(): void }[] = [];
  const open = vi.fn<OpenEventStream>(async (orgId, signal) => {
    // The server's answer may be held back, as over a slow connection.
    await opts.answer;
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
    signal.addEventListener('abort', () => controller.error(new DOMException('Aborted', 'AbortError')));
    const encoder = new TextEncoder();
    opened.push({ orgId, write: (text) => controller.enqueue(encoder.encode(text)), end: () => controller.close() });
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  });
  const hub = createOrganizationEventHub(liveUpdatesMachine.provide({ actors: { stream: eventStreamActor(open) } }), { lingerMs: 0 });
  const change = (type: 'hits' | 'searches', organizationId = OSLO) => `data: ${JSON.stringify({ type, organizationId })}\n\n`;
  return { open, opened, hub, change, last: () => opened.at(-1)! };
}

/** A fake API: the hit list and the searches answer what the test says now, and count their calls. */
function fakeApi(answers: { hits: () => HitSummary[]; searches?: () => SearchJob[] }) {
  const calls = { hits: 0, searches: 0 };
  const api = fakeApiClient(async (request) => {
    const path = new URL(request.url).pathname;
    if (path.endsWith('/pending-hits')) {
      calls.hits++;
      const items = answers.hits();
      return Response.json({ items, count: items.length });
    }
    if (path.endsWith('/searches')) {
      calls.searches++;
      const items = answers.searches?.() ?? [];
      return Response.json({ items, count: items.length });
    }
    return Response.json({ error: 'Not found' }, { status: 404 });
  });
  return { api, calls };
}

function draw(ui: React.ReactNode, opts: { api: ReturnType<typeof fakeApi>['api']; hub: OrganizationEventHub; user?: Me }) {
  const location = memoryLocation({ path: `/${OSLO}/hits` });
  return render(
    <Router hook={location.hook}>
      <ApiContext.Provider value={opts.api}>
        <ShellSessionContext.Provider value={{ me: opts.user ?? REVIEWER, signOut: vi.fn(), acceptLicences: vi.fn(async () => undefined) }}>
          <OrganizationEventsContext.Provider value={opts.hub}>{ui}</OrganizationEventsContext.Provider>
        </ShellSessionContext.Provider>
      </ApiContext.Provider>
    </Router>,
  );
}

const count = () => screen.getByText(/\d+ records?$/).textContent;

let hubs: OrganizationEventHub[] = [];
afterEach(() => {
  for (const hub of hubs) hub.close();
  hubs = [];
});

describe('the hit list with live updates', () => {
  it('reads its rows again when the stream says the organization’s hits changed', async () => {
    let rows = [hit(1)];
    const { api, calls } = fakeApi({ hits: () => rows });
    const s = fakeStreams();
    hubs.push(s.hub);
    draw(<HitList orgId={OSLO} owner={{ orgId: OSLO }} list="pending" />, { api, hub: s.hub });
    await waitFor(() => expect(count()).toBe('1 record'));
    expect(s.open).toHaveBeenCalledTimes(1);
    expect(s.last().orgId).toBe(OSLO);
    s.last().write(': connected\n\n');
    // Read once more as the stream opened (issue 18).
    await waitFor(() => expect(calls.hits).toBe(2));

    // Another user's search recorded a hit.
    rows = [hit(1), hit(2)];
    s.last().write(s.change('hits'));
    await waitFor(() => expect(count()).toBe('2 records'));
    expect(within(screen.getByRole('grid')).getByText('E-2 (CASE-1)')).toBeInTheDocument();
    expect(calls.hits).toBe(3);
  });

  it('reads again when the stream opens, so a hit recorded between the first read and the opening is shown (issue 18)', async () => {
    let rows = [hit(1)];
    const { api, calls } = fakeApi({ hits: () => rows });
    let answer!: () => void;
    const s = fakeStreams({ answer: new Promise<void>((resolve) => (answer = resolve)) });
    hubs.push(s.hub);
    draw(<HitList orgId={OSLO} owner={{ orgId: OSLO }} list="pending" />, { api, hub: s.hub });
    await waitFor(() => expect(count()).toBe('1 record'));
    // A search records a hit before the server has answered the stream: nobody tells this page of it.
    rows = [hit(1), hit(2)];
    answer();
    await waitFor(() => expect(count()).toBe('2 records'));
    expect(calls.hits).toBe(2);
  });

  it('reads once for a burst of changes, and not at all for a change of searches', async () => {
    const rows = [hit(1)];
    const { api, calls } = fakeApi({ hits: () => rows });
    const s = fakeStreams();
    hubs.push(s.hub);
    draw(<HitList orgId={OSLO} owner={{ orgId: OSLO }} list="pending" />, { api, hub: s.hub });
    await waitFor(() => expect(count()).toBe('1 record'));
    s.last().write(': connected\n\n');
    // The read told by the stream's opening.
    await waitFor(() => expect(calls.hits).toBe(2));
    s.last().write(s.change('searches'));
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(calls.hits).toBe(2);
    s.last().write(s.change('hits') + s.change('hits') + s.change('hits'));
    await waitFor(() => expect(calls.hits).toBe(3));
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(calls.hits).toBe(3);
  });

  it('reads again after the stream comes back, as changes may have been missed meanwhile', async () => {
    let rows = [hit(1)];
    const { api } = fakeApi({ hits: () => rows });
    const s = fakeStreams();
    hubs.push(s.hub);
    draw(<HitList orgId={OSLO} owner={{ orgId: OSLO }} list="pending" />, { api, hub: s.hub });
    await waitFor(() => expect(count()).toBe('1 record'));
    s.last().write(': connected\n\n');
    // The server restarts; a hit is recorded while the page is disconnected.
    s.last().end();
    rows = [hit(1), hit(3)];
    await waitFor(() => expect(s.open).toHaveBeenCalledTimes(2), { timeout: 5000 });
    await waitFor(() => expect(count()).toBe('2 records'));
  });

  it('shows each answer while changes keep coming faster than the list is read (issue 18)', async () => {
    // Each read waits until the test answers it, as a server busy with searches would.
    const held: { answer(): void }[] = [];
    let rows = [hit(1)];
    let reads = 0;
    const api = fakeApiClient((request) => {
      reads++;
      if (!new URL(request.url).pathname.endsWith('/pending-hits')) return Promise.resolve(Response.json({ error: 'Not found' }, { status: 404 }));
      const items = rows;
      return new Promise((resolve) => held.push({ answer: () => resolve(Response.json({ items, count: items.length })) }));
    });
    const s = fakeStreams();
    hubs.push(s.hub);
    draw(<HitList orgId={OSLO} owner={{ orgId: OSLO }} list="pending" />, { api, hub: s.hub });
    await waitFor(() => expect(held).toHaveLength(1));
    held.shift()!.answer();
    await waitFor(() => expect(count()).toBe('1 record'));
    s.last().write(': connected\n\n');
    // The read told by the stream's opening.
    await waitFor(() => expect(held).toHaveLength(1));
    held.shift()!.answer();
    await waitFor(() => expect(reads).toBe(2));
    await new Promise((resolve) => setTimeout(resolve, 50));

    // A search records a hit: the list is read again; another records one more while that read is under way.
    rows = [hit(1), hit(2)];
    s.last().write(s.change('hits'));
    await waitFor(() => expect(held).toHaveLength(1));
    rows = [hit(1), hit(2), hit(3)];
    s.last().write(s.change('hits'));
    await new Promise((resolve) => setTimeout(resolve, 600));
    // The first read is shown, not dropped for the second change; the rows stayed on screen meanwhile.
    expect(within(screen.getByRole('grid')).getByText('E-1 (CASE-1)')).toBeInTheDocument();
    held.shift()!.answer();
    await waitFor(() => expect(within(screen.getByRole('grid')).getByText('E-2 (CASE-1)')).toBeInTheDocument());
    expect(count()).toBe('2 records');
    // Then one more read for the change heard meanwhile.
    await waitFor(() => expect(held).toHaveLength(1));
    held.shift()!.answer();
    await waitFor(() => expect(count()).toBe('3 records'));
    expect(within(screen.getByRole('grid')).getByText('E-3 (CASE-1)')).toBeInTheDocument();
    expect(reads).toBe(4);
  });

  it('opens one stream for all the lists that follow the organization', async () => {
    const { api } = fakeApi({ hits: () => [hit(1)] });
    const s = fakeStreams();
    hubs.push(s.hub);
    draw(
      <>
        <HitList orgId={OSLO} owner={{ orgId: OSLO }} list="pending" />
        <HitList orgId={OSLO} owner={{ caseId: OSLO }} list="pending" />
      </>,
      { api, hub: s.hub },
    );
    await waitFor(() => expect(screen.getAllByText('1 record')).toHaveLength(2));
    expect(s.open).toHaveBeenCalledTimes(1);
  });

  it('follows nothing for a user who may not read the organization’s hits', async () => {
    const { api } = fakeApi({ hits: () => [hit(1)] });
    const s = fakeStreams();
    hubs.push(s.hub);
    draw(<HitList orgId={OSLO} owner={{ orgId: OSLO }} list="pending" />, { api, hub: s.hub, user: userWith({ Profiles: ['Read'] }) });
    await waitFor(() => expect(count()).toBe('1 record'));
    expect(s.open).not.toHaveBeenCalled();
  });
});

describe('the database search panel with live updates', () => {
  const job = (status: SearchJob['status'], done: number, hits = 0): SearchJob => ({
    id: '33333333-3333-4333-8333-333333333333',
    profileId: OSLO,
    sampleName: 'LIVE-1',
    organizationId: OSLO,
    status,
    done,
    total: 4,
    hits,
    error: null,
    queuedAt: new Date().toISOString(),
    finishedAt: status === 'done' ? new Date().toISOString() : null,
  });

  it('shows a search move on and finish as the stream says, without polling while it is open', async () => {
    let current = job('running', 1);
    const { api, calls } = fakeApi({ hits: () => [], searches: () => [current] });
    const s = fakeStreams();
    hubs.push(s.hub);
    draw(<SearchProgress orgId={OSLO} onFinished={vi.fn()} />, { api, hub: s.hub });
    const panel = within(await screen.findByRole('region', { name: 'Database searches' }));
    expect(panel.getByText('LIVE-1').nextElementSibling).toHaveTextContent('searching, 1 of 4 steps');
    s.last().write(': connected\n\n');
    await waitFor(() => expect(s.hub.status(OSLO)).toBe('live'));
    // The read told by the stream's opening, then none until a change.
    await waitFor(() => expect(calls.searches).toBe(2));
    const readsWhenLive = calls.searches;
    await new Promise((resolve) => setTimeout(resolve, SEARCH_POLL_MS + 500));
    expect(calls.searches).toBe(readsWhenLive);

    current = job('done', 4, 3);
    s.last().write(s.change('searches'));
    await waitFor(() => expect(panel.getByText('LIVE-1').nextElementSibling).toHaveTextContent('done, 3 new hits'));
  });

  it('polls while a search runs and the stream is down, and lets the hit list know when it finished', async () => {
    let current = job('running', 1);
    const { api } = fakeApi({ hits: () => [], searches: () => [current] });
    // The server cannot be reached for the stream: it waits to try again.
    const hub = createOrganizationEventHub(liveUpdatesMachine.provide({ actors: { stream: eventStreamActor(() => Promise.reject(new TypeError('Failed to fetch'))) } }));
    hubs.push(hub);
    const onFinished = vi.fn();
    draw(<SearchProgress orgId={OSLO} onFinished={onFinished} />, { api, hub });
    const panel = within(await screen.findByRole('region', { name: 'Database searches' }));
    expect(hub.status(OSLO)).toBe('reconnecting');
    current = job('done', 4, 2);
    await waitFor(() => expect(panel.getByText('LIVE-1').nextElementSibling).toHaveTextContent('done, 2 new hits'), { timeout: SEARCH_POLL_MS * 3 });
    expect(onFinished).toHaveBeenCalled();
  });
});
