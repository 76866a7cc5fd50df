import { describe, expect, it, vi } from 'vitest';
import { createActor, createMachine } from 'xstate';
import type { LiveUpdatesEvent } from '../../../machines/liveUpdates.machine';
import { eventStreamActor, liveEventStream, readEventStream, type OpenEventStream } from '../../../src/app/event-stream';

/** A body that delivers `chunks` one by one. */
const bodyOf = (...chunks: string[]) => {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
};

describe('reading a text/event-stream', () => {
  it('joins data lines split across chunks, with CRLF or LF, and reports comments', async () => {
    const data: string[] = [];
    let comments = 0;
    await readEventStream(bodyOf(': conn', 'ected\n\ndata: {"type":', '"hits"}\r\n\r\n', 'data: a\ndata:b\n\n', 'event: x\nid: 1\n\n: heartbeat\n\n'), {
      comment: () => comments++,
      data: (text) => data.push(text),
    });
    expect(data).toEqual(['{"type":"hits"}', 'a\nb']);
    expect(comments).toBe(2);
  });
});

describe('opening the stream', () => {
  it('asks for the organization’s events with the session’s bearer token', async () => {
    const fetch = vi.fn(async () => new Response(bodyOf(), { status: 200 }));
    const open = liveEventStream({ baseUrl: 'https://locus.test', getAccessToken: () => 'tok-1', onUnauthorized: vi.fn(), fetch });
    await open('all', new AbortController().signal);
    const [url, init] = fetch.mock.calls[0]! as unknown as [URL, RequestInit];
    expect(String(url)).toBe('https://locus.test/api/organizations/all/events');
    expect(init.headers).toEqual({ accept: 'text/event-stream', authorization: 'Bearer tok-1' });
  });

  it('tells the session about a 401, as the API client does', async () => {
    const onUnauthorized = vi.fn();
    const open = liveEventStream({ baseUrl: 'https://locus.test', getAccessToken: () => undefined, onUnauthorized, fetch: async () => new Response(null, { status: 401 }) });
    expect((await open('org', new AbortController().signal)).status).toBe(401);
    expect(onUnauthorized).toHaveBeenCalledOnce();
  });
});

describe('the stream actor', () => {
  /** Runs the actor under a parent that records what it reports. */
  async function reports(open: OpenEventStream, until: (events: LiveUpdatesEvent[]) => boolean): Promise<LiveUpdatesEvent[]> {
    const heard: LiveUpdatesEvent[] = [];
    const parent = createMachine({
      types: {} as { events: LiveUpdatesEvent },
      invoke: { src: eventStreamActor(open), input: { orgId: 'org-a' } },
      on: { '*': { actions: ({ event }) => heard.push(event) } },
    });
    const actor = createActor(parent).start();
    await vi.waitFor(() => expect(until(heard)).toBe(true));
    actor.stop();
    return heard;
  }

  it('reports the stream opening, its heartbeats and each known change, then its end', async () => {
    const body = bodyOf(': connected\n\n', 'data: {"type":"hits","organizationId":"org-a"}\n\n', 'data: not json\n\n', 'data: {"type":"profiles","organizationId":"org-a"}\n\n', 'data: {"type":"weather","organizationId":"org-a"}\n\n');
    const heard = await reports(async () => new Response(body, { status: 200 }), (e) => e.some((x) => x.type === 'stream.lost'));
    expect(heard).toEqual([
      { type: 'stream.open' },
      { type: 'stream.beat' },
      { type: 'stream.change', change: 'hits' },
      { type: 'stream.change', change: 'profiles' },
      { type: 'stream.lost', reason: 'The server ended the stream' },
    ]);
  });

  it('reports a 403 or 404 as refused, and any other failure as lost', async () => {
    expect(await reports(async () => new Response('{}', { status: 403 }), (e) => e.length > 0)).toEqual([{ type: 'stream.refused', status: 403 }]);
    expect(await reports(async () => new Response('{}', { status: 404 }), (e) => e.length > 0)).toEqual([{ type: 'stream.refused', status: 404 }]);
    expect(await reports(async () => new Response('', { status: 502 }), (e) => e.length > 0)).toEqual([{ type: 'stream.lost', reason: 'The server answered 502' }]);
    expect(await reports(() => Promise.reject(new TypeError('fetch failed')), (e) => e.length > 0)).toEqual([{ type: 'stream.lost', reason: 'fetch failed' }]);
  });

  it('aborts the request when it is stopped', async () => {
    let signal: AbortSignal | undefined;
    await reports(async (_, s) => {
      signal = s;
      return new Response(new ReadableStream(), { status: 200 });
    }, (e) => e.length > 0);
    expect(signal?.aborted).toBe(true);
  });
});
