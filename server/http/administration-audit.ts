import type { FastifyInstance, FastifyRequest } from 'fastify';
import { appendAudit } from '../audit/audit-trail';
import type { Clock } from '../clock';
import type { Db } from '../db/database';
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

/**
 * The audit trail of administration writes (ARCHITECTURE.md "Audit": every write appends a row).
 * Reference data has no case to belong to; each successful write is recorded with the record as the
 * response returns it, so consecutive rows of one record show its states before and after.
 */
export function auditAdministrationWrites(area: FastifyInstance, db: Db, clock: Clock): void {
  area.addHook('onSend', async (request, reply, payload) => {
    if (!(request.method in ACTION_OF_METHOD) || reply.statusCode >= 300 || !request.user) return payload;
    const params = (request.params ?? {}) as Record<string, string>;
    const after = request.method === 'DELETE' ? null : recordable(payload);
    const before = beforeStates.has(request) ? scrub(beforeStates.get(request)) : null;
    const segment = (request.routeOptions.url ?? '').split('/')[2] ?? 'record';
    const entityId = params.id ?? params.analysisGroupId ?? (after && typeof after === 'object' && 'id' in after ? String((after as { id: unknown }).id) : '');
    await appendAudit(db, auditActor(request.user), clock, { entity: segment, entityId, action: actionOf(request), before, after });
    return payload;
  });
}
