import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ALL_ORGANIZATIONS, can } from '../../../core/permissions';
import { ErrorBody, Id } from '../../../core/schemas/common';
import type { OrganizationChange, OrganizationEvent } from '../../../core/schemas/organization-events';
import type { OrganizationEvents } from '../../events/organization-events';
import type { AuthenticatedUser } from '../../identity/load-principal';
import type { Access } from '../access';

export interface OrganizationEventRoutesDeps {
  events: OrganizationEvents;
  /** Comment lines this often keep proxies and the browser from dropping a quiet stream. */
  heartbeatMs?: number;
  /** A stream ends this long after it opened; the page connects again, with a token and rights read anew. */
  maxStreamMs?: number;
}

export const HEARTBEAT_MS = 15_000;
export const MAX_STREAM_MS = 15 * 60_000;

/** Who may follow an organization: whoever reads its hits or its profiles (each hears only what they read). */
export const ORGANIZATION_EVENTS_ACCESS: Access = {
  rule: 'Hits Read or Profiles Read in :orgId',
  allows: (user, request) => {
    const { orgId } = request.params as { orgId: string };
    return can(user, 'Hits', 'Read', { orgId }) || can(user, 'Profiles', 'Read', { orgId });
  },
};

/** Whether `user` may hear a change of this kind in that organization: hits and searches with Hits Read, profiles with Profiles Read. */
export const mayHear = (user: AuthenticatedUser, organizationId: string, change: OrganizationChange): boolean =>
  can(user, change === 'profiles' ? 'Profiles' : 'Hits', 'Read', { orgId: organizationId });

/** One server-sent event: the change as JSON on one `data:` line, then the blank line that ends it. */
export const formatEvent = (event: OrganizationEvent): string => `data: ${JSON.stringify(event)}\n\n`;

/**
 * GET organizations/{orgId}/events (ARCHITECTURE.md "Heavy work off the request thread": server-sent
 * events push list changes to open pages): a `text/event-stream` of `{ type: 'hits' | 'searches' |
 * 'profiles', organizationId }` for the organization, or at `all` for every organization the user
 * reaches (every one for scope All). Hits Read or Profiles Read there, as the guard checks; each user
 * hears only the kinds they may read (mayHear). A small writer
 * rather than a plugin: the stream only says "read again", so it needs no ids, replay or negotiation.
 */
export const organizationEventsRoutes: FastifyPluginAsyncZod<OrganizationEventRoutesDeps> = async (app, { events, heartbeatMs = HEARTBEAT_MS, maxStreamMs = MAX_STREAM_MS }) => {
  const open = new Set<() => void>();
  // An open stream would keep the server from closing: end them all first.
  app.addHook('preClose', async () => {
    for (const end of [...open]) end();
  });

  app.get(
    '/organizations/:orgId/events',
    {
      config: { access: ORGANIZATION_EVENTS_ACCESS },
      schema: {
        tags: ['hits', 'profiles'],
        summary:
          'Server-sent events: each `data:` line is an OrganizationEvent saying the hits, the database searches (both with Hits Read) or the profiles (Profiles Read) of an organization changed; comment lines are heartbeats',
        params: z.object({ orgId: z.union([Id, z.literal(ALL_ORGANIZATIONS)]) }),
        response: {
          200: { description: 'A text/event-stream that stays open', content: { 'text/event-stream': { schema: z.string() } } },
          403: ErrorBody,
        },
      },
    },
    (request, reply) => {
      const { orgId } = request.params;
      const user = request.user;
      const reach = orgId !== ALL_ORGANIZATIONS ? [orgId] : user.scope === 'All' ? null : user.organizationIds;

      // The reply is written by hand from here: Fastify's serializers and onSend hooks are done with it.
      reply.hijack();
      const res = reply.raw;
      for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== undefined) res.setHeader(name, value);
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        // no-transform: a compressing proxy would hold events back until its buffer fills.
        'cache-control': 'no-cache, no-transform',
        'x-accel-buffering': 'no',
      });
      // The first bytes send the headers, so the page knows at once that the stream is open.
      res.write(': connected\n\n');

      // A reader that does not keep up gets each waiting change once, when it catches up.
      const waiting = new Map<string, OrganizationEvent>();
      const send = (organizationId: string, type: OrganizationChange) => {
        if (res.writableEnded || !mayHear(user, organizationId, type)) return;
        if (res.writableNeedDrain) waiting.set(`${organizationId}/${type}`, { type, organizationId });
        else res.write(formatEvent({ type, organizationId }));
      };
      const drained = () => {
        const due = [...waiting.values()];
        waiting.clear();
        for (const event of due) send(event.organizationId, event.type);
      };
      const unsubscribe = events.subscribe(reach, send);
      const heartbeat = setInterval(() => {
        if (!res.writableNeedDrain) res.write(': heartbeat\n\n');
      }, heartbeatMs);
      const expiry = setTimeout(() => end(), maxStreamMs);
      heartbeat.unref();
      expiry.unref();

      const end = () => {
        if (!open.delete(end)) return;
        unsubscribe();
        clearInterval(heartbeat);
        clearTimeout(expiry);
        res.off('drain', drained);
        if (!res.writableEnded) res.end();
      };
      open.add(end);
      res.on('drain', drained);
      // The page went away (or the connection broke): stop hearing for it.
      res.on('close', end);
      res.on('error', end);
    },
  );
};
