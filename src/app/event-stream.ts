import { fromCallback } from 'xstate';
import { OrganizationEvent } from '../../core/schemas/organization-events';
import type { LiveUpdatesEvent, LiveUpdatesInput } from '../../machines/liveUpdates.machine';
import type { paths } from '../api/schema';

/** Opens GET organizations/{orgId}/events; resolves to the response as soon as its headers arrive. */
export type OpenEventStream = (orgId: string, signal: AbortSignal) => Promise<Response>;

const EVENTS_PATH = '/api/organizations/{orgId}/events' satisfies keyof paths;

/**
 * The browser's side of the event stream. Not EventSource: it cannot send the bearer token, and
 * the session's token lives in memory, not in a cookie. Not @microsoft/fetch-event-source either:
 * unmaintained since 2021, with its own retry and page-visibility rules where the liveUpdates
 * machine already decides when to connect. A plain fetch with the API client's headers does it.
 */
export function liveEventStream(options: { baseUrl: string; getAccessToken(): string | undefined; onUnauthorized(): void; fetch?: typeof fetch }): OpenEventStream {
  const fetchStream = options.fetch ?? ((input, init) => fetch(input, init));
  return async (orgId, signal) => {
    const token = options.getAccessToken();
    const url = new URL(EVENTS_PATH.replace('{orgId}', encodeURIComponent(orgId)), options.baseUrl);
    const response = await fetchStream(url, {
      headers: { accept: 'text/event-stream', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      cache: 'no-store',
      signal,
    });
    // The session signs in again; the machine tries again later with the new token.
    if (response.status === 401) options.onUnauthorized();
    return response;
  };
}

/** What one `text/event-stream` holds, line by line (the WHATWG rules our server needs: comments and `data:` fields). */
export interface EventStreamHandlers {
  /** A comment line (`: heartbeat`). */
  comment(): void;
  /** One event's data (its `data:` lines joined with newlines), when a blank line ends it. */
  data(text: string): void;
}

/** Reads `body` to its end, calling `handlers` as lines arrive. */
export async function readEventStream(body: ReadableStream<Uint8Array>, handlers: EventStreamHandlers): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let pending = '';
  let data: string[] = [];
  const line = (text: string) => {
    if (text === '') {
      if (data.length > 0) handlers.data(data.join('\n'));
      data = [];
    } else if (text.startsWith(':')) {
      handlers.comment();
    } else if (text === 'data' || text.startsWith('data:')) {
      const value = text.slice(5);
      data.push(value.startsWith(' ') ? value.slice(1) : value);
    }
    // Other fields (event, id, retry) are not used by this server.
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      pending += decoder.decode(value, { stream: true });
      const lines = pending.split('\n');
      pending = lines.pop()!;
      for (const l of lines) line(l.endsWith('\r') ? l.slice(0, -1) : l);
    }
  } finally {
    reader.releaseLock();
  }
}

const reasonOf = (err: unknown) => (err instanceof Error && err.message ? err.message : 'The connection failed');

/**
 * The liveUpdates machine's `stream` actor over `open`: reports the stream opening, its heartbeats,
 * each change, and its end; stopping the actor aborts the request.
 */
export function eventStreamActor(open: OpenEventStream) {
  return fromCallback<LiveUpdatesEvent, LiveUpdatesInput>(({ input, sendBack }) => {
    const abort = new AbortController();
    const report = (event: LiveUpdatesEvent) => {
      if (!abort.signal.aborted) sendBack(event);
    };
    void (async () => {
      let response: Response;
      try {
        response = await open(input.orgId, abort.signal);
      } catch (err) {
        report({ type: 'stream.lost', reason: reasonOf(err) });
        return;
      }
      if (!response.ok || !response.body) {
        await response.body?.cancel().catch(() => undefined);
        report(response.status === 403 || response.status === 404 ? { type: 'stream.refused', status: response.status } : { type: 'stream.lost', reason: `The server answered ${response.status}` });
        return;
      }
      report({ type: 'stream.open' });
      try {
        await readEventStream(response.body, {
          comment: () => report({ type: 'stream.beat' }),
          data: (text) => {
            let parsed: unknown;
            try {
              parsed = JSON.parse(text);
            } catch {
              return;
            }
            // A kind of change this page does not know (a newer server) is skipped.
            const event = OrganizationEvent.safeParse(parsed);
            if (event.success) report({ type: 'stream.change', change: event.data.type });
          },
        });
        report({ type: 'stream.lost', reason: 'The server ended the stream' });
      } catch (err) {
        report({ type: 'stream.lost', reason: reasonOf(err) });
      }
    })();
    return () => abort.abort();
  });
}
