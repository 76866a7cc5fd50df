import { Stream } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { appendAudit, type AuditEvent } from '../audit/audit-trail';
import type { Clock } from '../clock';
import type { Db } from '../db/database';
import type { TransactionScope } from '../db/transaction-scope';
import { auditActor } from './audit-actor';

const ACTION_OF_METHOD: Record<string, string> = { POST: 'Added', PUT: 'Edited', PATCH: 'Edited', DELETE: 'Deleted' };

// Secrets never enter the trail: a set-password link (its url) is a credential, and so is anything named like one.
const SECRET_KEY = /password|token|link|secret|url/i;

/** A response body as the trail keeps it: parsed JSON with secret-looking fields replaced. */
function recordable(payload: unknown): unknown {
  if (typeof payload !== 'string' || payload === '') return null;
  try {
    return scrub(JSON.parse(payload) as unknown);
  } catch {
    return null;
  }
}

function scrub(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(scrub);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, SECRET_KEY.test(k) ? '[not recorded]' : scrub(v)]));
  }
  return value;
}

// What a route says the record was before its write; WeakMap, so nothing outlives the request.
const beforeStates = new WeakMap<FastifyRequest, unknown>();

/** Hands the trail the record as it was before this request changed or deleted it, so the row shows before and after. */
export function auditBefore(request: FastifyRequest, before: unknown): void {
  beforeStates.set(request, before);
}

/** "Added", "Edited", "Deleted", or for a call on a sub-resource (…/:id/statistics) that name with the verb. */
function actionOf(request: FastifyRequest): string {
  const verb = ACTION_OF_METHOD[request.method] ?? request.method;
  const last = (request.routeOptions.url ?? '').split('/').at(-1) ?? '';
  return last && !last.startsWith(':') && request.params && Object.keys(request.params as object).length > 0 ? `${verb} (${last})` : verb;
}

/** The answer as the response's JSON: objects through the route's serializer (only the fields it sends); files and streams are not recorded. */
function asJson(reply: FastifyReply, payload: unknown): unknown {
  if (typeof payload === 'string') return payload;
  if (payload === null || typeof payload !== 'object' || Buffer.isBuffer(payload) || payload instanceof Stream) return null;
  try {
    return reply.serialize(payload);
  } catch {
    return null;
  }
}

/** The audit row of a successful write, from the record it answered with (`payload`, before serialising). */
function auditEventOf(request: FastifyRequest, reply: FastifyReply, payload: unknown): AuditEvent {
  const params = (request.params ?? {}) as Record<string, string>;
  const after = request.method === 'DELETE' ? null : recordable(asJson(reply, payload));
  const before = beforeStates.has(request) ? scrub(beforeStates.get(request)) : null;
  const segment = (request.routeOptions.url ?? '').split('/')[2] ?? 'record';
  const entityId = params.id ?? params.analysisGroupId ?? (after && typeof after === 'object' && 'id' in after ? String((after as { id: unknown }).id) : '');
  return { entity: segment, entityId, action: actionOf(request), before, after };
}

/** A route that only reads or computes (an analysis run, a preview) writes nothing to pair its audit row with. */
const writesData = (route: RouteOptions): boolean => {
  const access = route.config?.access;
  return !(access && 'verb' in access && access.verb === 'Read');
};

/**
 * The audit trail of administration writes (ARCHITECTURE.md "Audit": every write appends a row in the same
 * transaction as the write). Each write route's handler runs inside one transaction of `scope` (the routes
 * were given `scope.db`, so their queries run on it) and its audit row is appended there before it commits,
 * with the record as the response returns it, so consecutive rows of one record show its states before and
 * after. Issue 30: appended after the response, outside the write's transaction, the chain lock was released
 * at once and concurrent writers forked the chain.
 */
export function auditAdministrationWrites(area: FastifyInstance, scope: TransactionScope, clock: Clock): void {
  area.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.some((m) => m in ACTION_OF_METHOD)) return;
    const handler = route.handler as (this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) => unknown;
    const inTransaction = writesData(route);
    route.handler = async function auditedHandler(this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
      if (!(request.method in ACTION_OF_METHOD) || !request.user) return handler.call(this, request, reply);
      // A handler that answers with reply.send() inside the transaction would answer before it commits:
      // its payload is kept and sent once the write and its audit row are saved.
      let sent: { payload: unknown } | undefined;
      const send = reply.send;
      reply.send = (payload?: unknown) => {
        sent = { payload };
        return reply;
      };
      // A reply is awaitable until it has been sent: the handler's `return reply` would wait for ever.
      const replyAwaits = reply as unknown as { then?: unknown };
      replyAwaits.then = undefined;
      const answer = async () => {
        const returned = await handler.call(this, request, reply);
        return returned === reply && sent ? sent.payload : returned;
      };
      const record = (db: Db, payload: unknown) =>
        reply.statusCode < 300 ? appendAudit(db, auditActor(request.user), clock, auditEventOf(request, reply, payload)) : Promise.resolve();
      let payload: unknown;
      try {
        // An upload is parsed in the handler (a worker reads the file): on PGlite's one connection a transaction held
        // that long would stop every other request, so its handler writes in transactions of its own and the row follows.
        payload = inTransaction && !request.isMultipart()
          ? await scope.run(async (tx) => {
              const answered = await answer();
              await record(tx, answered);
              return answered;
            })
          : await answer().then(async (answered) => {
              await scope.run((tx) => record(tx, answered));
              return answered;
            });
      } finally {
        reply.send = send;
        delete replyAwaits.then;
      }
      if (sent === undefined) return payload;
      return reply.send(payload);
    };
  });
}
