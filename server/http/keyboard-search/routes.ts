import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { can } from '../../../core/permissions';
import { ErrorBody } from '../../../core/schemas/common';
import { KeyboardSearchAnalyses, KeyboardSearchAnalysesQuery, KeyboardSearchAnswer, KeyboardSearchBody } from '../../../core/schemas/keyboard-search';
import { loadMatchIndexes } from '../../matching/load-indexes';
import { MatchingService } from '../../matching/matching-service';
import { Forbidden } from '../errors';
import type { RouteDeps } from '../route-deps';
import { keyboardSearch } from './keyboard-search';
import type { SearchPool } from '../../search/search-pool';
import type { PopulationStatistics } from '../../matching/load-search-inputs';
import { listKeyboardSearchAnalyses } from './search-analyses';

/** The route's options: the app's matcher when it holds one (kept current on approve and reset). */
export interface KeyboardSearchDeps extends RouteDeps {
  matching?: MatchingService | (() => MatchingService | Promise<MatchingService>);
  /** The search workers the scans run on; without them, here. */
  pool?: SearchPool;
  /** The populations' statistics: the search queue's cache when the server keeps one, else read for each search. */
  statistics?: PopulationStatistics;
}

/**
 * POST profiles/get-all-possible-hits (spec 2.6 keyboard search; 7.1 `{resource}/get-all-possible-hits`
 * on the organization's profiles, which spec 7.1's one rewrite rule sends to `profiles`): a typed-in
 * profile against the approved profiles; Profiles Read in the body's organization. Without an injected
 * matcher the approved profiles are indexed from the database for each search (correct, not fast).
 */
export const keyboardSearchRoutes: FastifyPluginAsyncZod<KeyboardSearchDeps> = async (app, { db, clock, matching, pool, statistics }) => {
  const matcher = async () => {
    if (matching) return typeof matching === 'function' ? matching() : matching;
    return new MatchingService(await loadMatchIndexes(db));
  };
  app.post(
    '/profiles/get-all-possible-hits',
    {
      // The organization is in the body (the path has none after the rewrite): the handler checks it.
      config: { access: { entity: 'Profiles', verb: 'Read' } },
      schema: {
        tags: ['profiles'],
        summary: 'Keyboard search: a typed-in profile against the approved profiles, with stringency and each analysis per population; stores only an audit row',
        body: KeyboardSearchBody,
        response: { 200: KeyboardSearchAnswer, 400: ErrorBody, 403: ErrorBody, 404: ErrorBody, 503: ErrorBody },
      },
    },
    async (request) => {
      if (!can(request.user, 'Profiles', 'Read', { orgId: request.body.organizationId })) throw new Forbidden();
      return keyboardSearch(db, clock, request.user, request.body, await matcher(), pool, statistics);
    },
  );
  app.get(
    '/profiles/keyboard-search-analyses',
    {
      // What the search form offers: a Profiles Read user sees the analyses' names in the answer anyway.
      config: { access: { entity: 'Profiles', verb: 'Read' } },
      schema: {
        tags: ['profiles'],
        summary: 'The analyses a keyboard search can run for a kind (active, two roles, with a threshold), the same-source ones marked as run by default',
        querystring: KeyboardSearchAnalysesQuery,
        response: { 200: KeyboardSearchAnalyses, 400: ErrorBody, 403: ErrorBody },
      },
    },
    async (request) => ({ items: await listKeyboardSearchAnalyses(db, request.query.kind) }),
  );
};
