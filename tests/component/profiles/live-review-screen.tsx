import { render } from '@testing-library/react';
import { vi } from 'vitest';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import type { Me } from '../../../core/schemas/me';
import { liveUpdatesMachine } from '../../../machines/liveUpdates.machine';
import type { ApiClient } from '../../../src/api/client';
import { ApiContext } from '../../../src/app/api-provider';
import { eventStreamActor, type OpenEventStream } from '../../../src/app/event-stream';
import { createOrganizationEventHub, OrganizationEventsContext, type OrganizationEventHub } from '../../../src/app/organization-events';
import { ShellSessionContext } from '../../../src/app/shell-session';
import { ProfilesPage } from '../../../src/profiles/profiles-page';

/**
 * The profiles Review list of `orgId` over a faked API and a faked event stream (the real parser, machine and hub
 * run): `opened` writes into each stream the page opened; close `hub` after the test.
 */
export function renderLiveReview(api: ApiClient, me: Me, orgId: string) {
  const opened: { write(text: string): void }[] = [];
  const open = vi.fn<OpenEventStream>(async (_orgId, signal) => {
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
    signal.addEventListener('abort', () => controller.error(new DOMException('Aborted', 'AbortError')));
    opened.push({ write: (text) => controller.enqueue(new TextEncoder().encode(text)) });
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  });
  const hub: OrganizationEventHub = createOrganizationEventHub(liveUpdatesMachine.provide({ actors: { stream: eventStreamActor(open) } }), { lingerMs: 0 });
  const location = memoryLocation({ path: `/${orgId}/profiles/review` });
  render(
    <Router hook={location.hook}>
      <ApiContext.Provider value={api}>
        <ShellSessionContext.Provider value={{ me, signOut: vi.fn(), acceptLicences: vi.fn(async () => undefined) }}>
          <OrganizationEventsContext.Provider value={hub}>
            <ProfilesPage orgId={orgId} tab="review" />
          </OrganizationEventsContext.Provider>
        </ShellSessionContext.Provider>
      </ApiContext.Provider>
    </Router>,
  );
  return { opened, open, hub };
}
