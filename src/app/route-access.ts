import { can, type Principal, type Verb } from '../../core/permissions';
import { isGuid } from '../../core/guid';
import type { AppRoute } from './routes';

/** The verb a route needs for these params: adding a new record may need a different one than editing. */
export function requiredVerb(route: AppRoute, params: Readonly<Record<string, string>>): Verb | undefined {
  const permission = route.permission;
  if (!permission) return undefined;
  const crumb = route.breadcrumb;
  const recordParam = permission.recordParam ?? (typeof crumb === 'object' ? crumb.param : undefined);
  if (permission.verbWhenNew && recordParam) {
    const recordId = params[recordParam];
    if (recordId !== undefined && !isGuid(recordId)) return permission.verbWhenNew;
  }
  return permission.verb;
}

/** May the user open this route in organization `params.orgId`? */
export function canOpen(principal: Principal, route: AppRoute, params: Readonly<Record<string, string>>): boolean {
  const verb = requiredVerb(route, params);
  if (!route.permission || !verb) return true;
  return can(principal, route.permission.entity, verb, params.orgId !== undefined ? { orgId: params.orgId } : {});
}
