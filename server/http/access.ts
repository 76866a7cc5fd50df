import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { can, type Entity, type Verb } from '../../core/permissions';
import type { AuthenticatedUser } from '../identity/load-principal';
import { Forbidden } from './errors';

/**
 * Who may call a route. Every /api route declares one in `config.access`; a route without it makes
 * the app refuse to start, so no call can ship unguarded (the authorization matrix test reads these).
 */
export type Access =
  /** No sign-in (health, client configuration, the OpenAPI document). */
  | { public: true }
  /** Any signed-in user (their own profile, licence acceptance). */
  | { signedIn: true }
  /** `can(user, entity, verb, { orgId })` of core/permissions.ts; `orgParam` names the path parameter holding orgId. */
  | { entity: Entity; verb: Verb; orgParam?: string }
  /** A rule that is not one entity × verb (e.g. "Users Edit, or the user themself"); `rule` documents it. */
  | { rule: string; allows(user: AuthenticatedUser, request: FastifyRequest): boolean; services?: true };

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyInstance {
    /** Every /api route with its access rule, in registration order (read by the authorization matrix test). */
    accessCatalogue: { method: string; url: string; access: Access }[];
  }
}

function describeRoute(route: RouteOptions): string {
  return `${Array.isArray(route.method) ? route.method.join(',') : route.method} ${route.url}`;
}

/** Whether `user` passes `access` for this request (after authentication). */
export function allows(access: Access, user: AuthenticatedUser, request: FastifyRequest): boolean {
  // A service client (issue 32) is no person: it reaches public routes and those whose rule admits services only.
  if (user.service) return 'public' in access || ('rule' in access && access.services === true && access.allows(user, request));
  if ('public' in access || 'signedIn' in access) return true;
  if ('rule' in access) return access.allows(user, request);
  const params = request.params as Record<string, string | undefined>;
  const orgId = access.orgParam ? params[access.orgParam] : undefined;
  return can(user, access.entity, access.verb, orgId === undefined ? {} : { orgId });
}

/**
 * Installs the guard on every route registered inside `api`: authentication and the permission
 * check run in onRequest, before the body is parsed or validated, so a caller without the right
 * learns nothing from validation errors and sends no large upload for nothing.
 */
export function guardRoutes(root: FastifyInstance, api: FastifyInstance): void {
  if (!root.hasDecorator('accessCatalogue')) root.decorate('accessCatalogue', []);
  api.addHook('onRoute', (route) => {
    const access = route.config?.access;
    if (!access) throw new Error(`${describeRoute(route)} declares no access rule (config.access)`);
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method !== 'HEAD') root.accessCatalogue.push({ method, url: route.url, access });
    }
    if ('public' in access) return;
    const guard = async (request: FastifyRequest) => {
      await root.authenticate(request);
      if (!allows(access, request.user, request)) throw new Forbidden();
    };
    const existing = route.onRequest ? (Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest]) : [];
    route.onRequest = [guard, ...existing];
  });
}
