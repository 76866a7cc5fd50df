import { isGuid } from '../../core/guid';
import { buildHref, getRoute, type AppRoute, type RouteName } from './routes';
import type { RouteMatch } from './route-match';

/** One crumb before its label is known: fixed text, or a record id to show (or look up). */
export type Crumb =
  | { key: string; routeName: RouteName; href: string; kind: 'text'; text: string }
  | { key: string; routeName: RouteName; href: string; kind: 'new' }
  | { key: string; routeName: RouteName; href: string; kind: 'record'; id: string; params: Record<string, string> };

function crumbFor(route: AppRoute, params: Record<string, string>): Crumb {
  const base = { key: route.name, routeName: route.name, href: buildHref(route.pattern, params) };
  const spec = route.breadcrumb;
  if (typeof spec === 'string') return { ...base, kind: 'text', text: spec };
  const id = params[spec.param] ?? '';
  // Spec 5: an id that is not a GUID is a new record.
  return isGuid(id) ? { ...base, kind: 'record', id, params } : { ...base, kind: 'new' };
}

/**
 * The breadcrumb trail of a matched route, root first. The calculator opened from a case leads back
 * to that case's involved parties (spec 2.5) instead of its analysis group.
 */
export function breadcrumbTrail(match: RouteMatch, search = ''): Crumb[] {
  const trail: Crumb[] = [];
  const caseId = new URLSearchParams(search).get('caseId');
  let params = match.params;
  let route: AppRoute | undefined = match.route;
  while (route) {
    trail.unshift(crumbFor(route, params));
    if (route.linksBackToCase && caseId && caseId !== 'new') {
      params = { ...params, caseId };
      route = getRoute('CaseInvolvedParties');
    } else {
      route = route.parent ? getRoute(route.parent) : undefined;
    }
  }
  return trail;
}
