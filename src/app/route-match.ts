import { ROUTE_LIST, type AppRoute } from './routes';

export interface RouteMatch {
  route: AppRoute;
  params: Record<string, string>;
}

const segmentsOf = (path: string) => path.split('/').filter((s) => s !== '');

interface Compiled {
  route: AppRoute;
  segments: string[];
}

/**
 * Static segments beat parameters at the first position where two patterns differ, so
 * /hits/published wins over /hits/:id whatever order the table is written in.
 */
function moreSpecific(a: Compiled, b: Compiled): number {
  for (let i = 0; i < Math.min(a.segments.length, b.segments.length); i++) {
    const aParam = a.segments[i]!.startsWith(':');
    const bParam = b.segments[i]!.startsWith(':');
    if (aParam !== bParam) return aParam ? 1 : -1;
  }
  return 0;
}

const COMPILED: readonly Compiled[] = ROUTE_LIST.map((route) => ({ route, segments: segmentsOf(route.pattern) })).sort(moreSpecific);

function decode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** The route a location path belongs to, with its decoded parameters; null when none does. */
export function matchRoute(path: string): RouteMatch | null {
  const parts = segmentsOf(path.split(/[?#]/)[0] ?? '');
  for (const { route, segments } of COMPILED) {
    if (segments.length !== parts.length) continue;
    const params: Record<string, string> = {};
    let ok = true;
    for (let i = 0; i < segments.length && ok; i++) {
      const pattern = segments[i]!;
      const value = decode(parts[i]!);
      if (value === undefined) ok = false;
      else if (pattern.startsWith(':')) params[pattern.slice(1)] = value;
      else ok = pattern === value;
    }
    if (ok) return { route, params };
  }
  return null;
}

/** The path after /{orgId}, kept when the user switches organization. */
export function subPathOf(path: string): string {
  const [, , ...rest] = path.split('/');
  return rest.length > 0 ? `/${rest.join('/')}` : '';
}

export const orgIdOf = (path: string): string => decode(segmentsOf(path)[0] ?? '') ?? '';
