import type { FastifyInstance } from 'fastify';
import type { RouteDeps } from './route-deps';
import { registerReferenceLists } from './reference-lists';
import { usersRoutes } from './users';
import { accessGroupsRoutes } from './access-groups';
import { markersRoutes } from './markers';
import { chemistriesRoutes } from './chemistries';
import { populationsRoutes } from './populations';
import { emailTemplatesRoutes } from './email-templates';
import { citationsRoutes } from './citations';
import { settingsTextsRoutes } from './settings-texts';
import { analysisGroupsRoutes } from './analysis-groups';
import { analysesRoutes } from './analyses';
import { searchRulesRoutes } from './search-rules';
import { uploadEligibilityRoutes } from './upload-eligibility/routes';
import { auditAdministrationWrites } from './administration-audit';
import type { Db } from '../db/database';
import { TransactionScope } from '../db/transaction-scope';
import { casesRoutes } from './cases';
import { profilesRoutes } from './profiles';
import { keyboardSearchRoutes } from './keyboard-search/routes';
import { taskRequestsRoutes } from './task-requests';
import { statsRoutes } from './stats/routes';
import { hitsRoutes } from './hits';
import { emailOutboxRoutes } from './email-outbox/routes';
import { searchesRoutes } from './searches/routes';
import { familialSearchRoutes } from './familial-search/routes';
import { selfComparisonRoutes } from './self-comparison/routes';
import { pedigreeLrRoute } from './pedigrees/pedigree-lr-route';
import { continuousLrRoute } from './mixtures/continuous-lr-route';
import { contributorSearchRoutes } from './mixtures/contributor-search-routes';
import { continuousReportRoute } from './mixtures/continuous-report-route';
import { mixtureLrRoute } from './mixtures/mixture-lr-route';
import { mixtureSearchRoute } from './mixtures/mixture-search-route';
import { familyRoutes } from './families/family-routes';
import { reviewSettingsRoutes } from './organizations/review-settings-routes';
import { reportSettingsRoutes } from './organizations/report-settings-routes';
import { auditExportRoutes } from './audit/audit-export-routes';
import { reviewCountsRoutes } from './review-counts/routes';

/** Every area's calls under /api: administration (spec 2.6 About/Contact, 2.7), cases and profiles (2.3, 2.8), hits, searches, keyboard search, dashboard (2.2, 2.4). */
export async function registerAreaRoutes(api: FastifyInstance, deps: RouteDeps): Promise<void> {
  // Administration routes write through a transaction scope that also appends their audit row; cases and profiles
  // audit inside their own transactions.
  await api.register(async (administration) => {
    const scope = new TransactionScope(deps.db);
    const scoped: RouteDeps = { ...deps, db: scope.db };
    auditAdministrationWrites(administration, scope, deps.clock);
    await registerReferenceLists(administration, scope.db);
    for (const plugin of [
      usersRoutes,
      accessGroupsRoutes,
      markersRoutes,
      chemistriesRoutes,
      populationsRoutes,
      emailTemplatesRoutes,
      citationsRoutes,
      settingsTextsRoutes,
      analysisGroupsRoutes,
      analysesRoutes,
      searchRulesRoutes,
      uploadEligibilityRoutes,
      reviewSettingsRoutes,
      reportSettingsRoutes,
    ]) {
      await administration.register(plugin, scoped);
    }
  });
  for (const plugin of [casesRoutes, profilesRoutes, taskRequestsRoutes, statsRoutes, hitsRoutes, emailOutboxRoutes, searchesRoutes, familialSearchRoutes, selfComparisonRoutes, pedigreeLrRoute, mixtureLrRoute, continuousLrRoute, continuousReportRoute, contributorSearchRoutes, familyRoutes, reviewCountsRoutes, auditExportRoutes]) await api.register(plugin, deps);
  // The keyboard search runs on the server's matcher, kept current on approve and reset (503 while it loads).
  const search = deps.search;
  // Both read the populations' statistics through the search queue's cache (read again only when a population changed:
  // four populations were 16 statements a search, issue 29).
  const onServer = search ? { matching: () => search.matcher(), pool: search.pool, statistics: (db: Db, ids: readonly string[]) => search.queue.populations.load(db, ids) } : {};
  await api.register(keyboardSearchRoutes, { ...deps, ...onServer });
  await api.register(mixtureSearchRoute, { ...deps, ...onServer });
}
