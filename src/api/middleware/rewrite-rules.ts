import type { Middleware } from 'openapi-fetch';
import { withUrl } from './with-url';

export type WriteMethod = 'POST' | 'PUT' | 'DELETE';

export interface RewriteRule {
  /** Said in the error when rules overlap. */
  name: string;
  methods: readonly WriteMethod[];
  /** Matched against the URL path after dash-casing; must not use the `g` flag. */
  pattern: RegExp;
  replacement: string;
}

/**
 * Spec 7.1: the only rule. Profiles are written through `/profiles` whatever organization screen
 * the user is on; the organization comes from the profile's case, not from the path.
 */
export const REWRITE_RULES: readonly RewriteRule[] = [
  {
    name: 'organization profiles are written through /profiles',
    methods: ['POST', 'PUT', 'DELETE'],
    pattern: /\/organizations\/[^/]+\/profiles(?=\/|$)/,
    replacement: '/profiles',
  },
];

/** Applies the one matching rule; two matching rules are a programming error, so it throws. */
export function rewritePath(method: string, pathname: string, rules: readonly RewriteRule[] = REWRITE_RULES): string {
  const upper = method.toUpperCase();
  const matching = rules.filter((r) => (r.methods as readonly string[]).includes(upper) && r.pattern.test(pathname));
  if (matching.length > 1) {
    throw new Error(`More than one rewrite rule matches ${upper} ${pathname}: ${matching.map((r) => r.name).join('; ')}`);
  }
  const [rule] = matching;
  return rule ? pathname.replace(rule.pattern, rule.replacement) : pathname;
}

export function rewritePaths(rules: readonly RewriteRule[] = REWRITE_RULES): Middleware {
  return {
    async onRequest({ request }) {
      const url = new URL(request.url);
      const pathname = rewritePath(request.method, url.pathname, rules);
      if (pathname === url.pathname) return undefined;
      url.pathname = pathname;
      return withUrl(request, url.toString());
    },
  };
}
