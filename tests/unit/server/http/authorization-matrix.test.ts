/**
 * The authorization matrix of issue 3, generated from the server's own route list: every /api
 * route is called as six personas and must answer as its declared access rule and spec 6 say.
 * A new route is covered automatically; a route whose parameters have no fixture fails below.
 */
import Fastify, { type LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENTITIES, VERBS, type Entity, type Verb } from '../../../../core/permissions';
import { allows, guardRoutes, type Access } from '../../../../server/http/access';
import { ADMINISTRATORS_ONLY } from '../../../../server/http/users/password-routes';
import { READ_ANY_CHEMISTRY } from '../../../../server/http/chemistries/general-routes';
import { CASE_FORM_ACCESS } from '../../../../server/http/cases/crud-routes';
import { PROFILE_FORM_ACCESS } from '../../../../server/http/profiles/crud-routes';
import { STATS_ACCESS } from '../../../../server/http/stats/routes';
import { selfComparisonAccess } from '../../../../server/http/self-comparison/routes';
import { accessTokens, families, taskRequests } from '../../../../server/db/schema';
import { recordHitCandidates } from '../../../../server/hits/record-hits';
import { loadPrincipal, type AuthenticatedUser } from '../../../../server/identity/load-principal';
import {
  analyses,
  analysisGroups,
  cases,
  caseTypes,
  chemistries,
  citations,
  emailTemplates,
  laboratories,
  markers,
  populationOrganizations,
  populations,
  profiles,
  sampleSources,
  profileImports,
  searchRules,
  users,
} from '../../../../server/db/schema';
import { createAccessGroup, createOrganization, createUser } from '../../../helpers/factories';
import { createTestApp, type TestApp } from '../../../helpers/app';
import { eq } from 'drizzle-orm';
import { REVIEW_COUNTS_ACCESS } from '../../../../server/http/review-counts/routes';
import { ORGANIZATION_EVENTS_ACCESS } from '../../../../server/http/events/routes';
import { FOREIGN_SENDER, NETWORK_ADMINISTRATION, NETWORK_PEER, NETWORK_SERVICE } from '../../../../server/http/network/access';
import { newClientCredentials } from '../../../../server/identity/service-clients';
import { loadServicePrincipal } from '../../../../server/identity/service-principal';
import { foreignQueries, foreignQueryReleases, serviceClients } from '../../../../server/db/schema';

const everything = (verbs: readonly Verb[]) => Object.fromEntries(ENTITIES.map((e) => [e, [...verbs]])) as Record<Entity, Verb[]>;

type PersonaName = 'admin with scope All' | 'admin with organization scope' | 'role with only Read' | 'user of another organization' | 'service client' | 'no token';
interface Persona {
  name: PersonaName;
  token?: string;
  principal?: AuthenticatedUser;
}

let t: TestApp;
const personas: Persona[] = [];
/** Values for path parameters, by "first path segment/param name" (or "*\/param" for any segment). */
const fixtures = new Map<string, string>();
/** Ids of records that belong to organization A only: another organization's user must never see them. */
const secrets: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  const orgA = await createOrganization(db, 'Matrix Lab A');
  const orgB = await createOrganization(db, 'Matrix Lab B');
  const adminRole = await createAccessGroup(db, { isAdmin: true, grants: everything(VERBS) });
  const readRole = await createAccessGroup(db, { grants: everything(['Read']) });
  const fullRole = await createAccessGroup(db, { grants: everything(VERBS) });

  const adminAll = await createUser(db, { scope: 'All', accessGroupId: adminRole.id, organizationIds: [orgA.id] });
  const adminOrg = await createUser(db, { scope: 'Organization', accessGroupId: adminRole.id, organizationIds: [orgA.id] });
  const reader = await createUser(db, { scope: 'Organization', accessGroupId: readRole.id, organizationIds: [orgA.id] });
  const other = await createUser(db, { scope: 'Organization', accessGroupId: fullRole.id, organizationIds: [orgB.id] });
  const memberOfA = await createUser(db, { scope: 'Organization', accessGroupId: readRole.id, organizationIds: [orgA.id] });

  const principal = async (id: string) => loadPrincipal(db, (await db.select().from(users).where(eq(users.id, id)))[0]!);
  // Issue 32: another instance signing in with client credentials (a service client acting for organization A).
  const service = newClientCredentials();
  await db.insert(serviceClients).values({ name: 'Matrix instance', clientId: service.clientId, secretHash: service.secretHash, organizationId: orgA.id });
  const servicePrincipal = await loadServicePrincipal(db, service.clientId);
  if (!servicePrincipal || 'refused' in servicePrincipal) throw new Error('no service principal');
  // Order matters: the personas that must be refused run before those that may delete fixtures.
  personas.push(
    { name: 'no token' },
    { name: 'user of another organization', token: t.verifier.issue(other.id), principal: await principal(other.id) },
    { name: 'role with only Read', token: t.verifier.issue(reader.id), principal: await principal(reader.id) },
    { name: 'admin with organization scope', token: t.verifier.issue(adminOrg.id), principal: await principal(adminOrg.id) },
    { name: 'service client', token: t.verifier.issue(service.clientId, { clientId: service.clientId }), principal: servicePrincipal },
    { name: 'admin with scope All', token: t.verifier.issue(adminAll.id), principal: await principal(adminAll.id) },
  );

  const [marker] = await db.insert(markers).values({ name: 'MATRIX1', kind: 'Autosomal' }).returning();
  const [chemistry] = await db.insert(chemistries).values({ name: 'Matrix kit', kind: 'Autosomal' }).returning();
  const [yChemistry] = await db.insert(chemistries).values({ name: 'Matrix Y kit', kind: 'YStr' }).returning();
  const [population] = await db.insert(populations).values({ name: 'Matrix population A' }).returning();
  await db.insert(populationOrganizations).values({ populationId: population!.id, organizationId: orgA.id });
  const [template] = await db.insert(emailTemplates).values({ hook: 'matrix-hook', subject: 'Matrix', body: '' }).returning();
  const [citation] = await db.insert(citations).values({ title: 'Matrix citation' }).returning();
  const [group] = await db.insert(analysisGroups).values({ name: 'Matrix group' }).returning();
  const [analysis] = await db.insert(analyses).values({ analysisGroupId: group!.id, name: 'Matrix analysis', kind: 'Computational' }).returning();
  const [caseType] = await db.insert(caseTypes).values({ name: 'Matrix case type' }).returning();
  const [sampleSource] = await db.insert(sampleSources).values({ name: 'Matrix source' }).returning();
  const [laboratory] = await db.insert(laboratories).values({ name: 'Matrix laboratory' }).returning();

  const [caseA] = await db.insert(cases).values({ caseNumber: 'MATRIX-1', caseTypeId: caseType!.id, organizationId: orgA.id }).returning();
  const [profileA] = await db
    .insert(profiles)
    .values({ profileId: 'MATRIX-P1', caseId: caseA!.id, organizationId: orgA.id, kind: 'Autosomal', chemistryId: chemistry!.id, sampleType: 'Reference' })
    .returning();

  const set = (key: string, value: string) => fixtures.set(key, value);
  set('*/orgId', orgA.id);
  set('organizations/id', orgA.id);
  set('users/id', memberOfA.id);
  set('access-groups/id', readRole.id);
  set('case-types/id', caseType!.id);
  set('sample-sources/id', sampleSource!.id);
  set('laboratories/id', laboratory!.id);
  set('markers/id', marker!.id);
  set('autosomal-chemistries/id', chemistry!.id);
  set('ystr-chemistries/id', yChemistry!.id);
  set('chemistries/id', chemistry!.id);
  set('populations/id', population!.id);
  // No candidate match exists: the rule is checked before the handler's 404.
  set('candidate-matches/id', '00000000-0000-4000-8000-0000000000c1');
  set('email-templates/id', template!.id);
  set('citations/id', citation!.id);
  set('analysis-groups/id', group!.id);
  set('*/analysisGroupId', group!.id);
  set('*/groupId', group!.id);
  set('*/analysisId', analysis!.id);
  set('analyses/id', analysis!.id);
  set('*/formulaId', analysis!.id);
  set('*/constantId', analysis!.id);
  set('settings/id', 'About');
  set('password-links/token', 'not-a-real-token');
  // Children of a case (/cases/:caseId/…/:id) get the case id too: they answer 404, which is neither 401 nor 403.
  set('cases/id', caseA!.id);
  set('*/caseId', caseA!.id);
  set('profiles/id', profileA!.id);
  // Issue 16: a draft family of case A (mother's role filled with A's profile).
  const [familyA] = await db.insert(families).values({ caseId: caseA!.id, organizationId: orgA.id, name: 'Matrix family', analysisId: analysis!.id, relatives: [], populationIds: [], threshold: 1000 }).returning();
  set('families/id', familyA!.id);
  secrets.push(orgA.id, memberOfA.id, population!.id, reader.id, adminOrg.id, caseA!.id, profileA!.id);
  // Dashboard (issue 6): a task request of organization A, and a statistic key.
  const [taskA] = await db.insert(taskRequests).values({ organizationId: orgA.id, title: 'Matrix task', caseId: caseA!.id, assignedTo: memberOfA.id }).returning();
  set('task-requests/id', taskA!.id);
  set('stats/key', 'cases-by-status');
  // Issue 31: a contributor-number job nobody started (each job answers its starter only: 404 for everyone else).
  set('continuous-lr/id', '0f0e0d0c-0b0a-4908-8706-050403020100');
  secrets.push(taskA!.id);
  // Hits (issue 6): a pending hit of organization A naming its profile.
  const [hitA] = await db.transaction((tx) =>
    recordHitCandidates(tx as never, { organizationId: orgA.id, candidates: [{ analysisId: analysis!.id, populationId: population!.id, profiles: [{ role: 'Evidence', profileId: profileA!.id }, { role: 'Reference', profileId: profileA!.id }], combinedIndex: 1e9, markerCount: 1, nonExclusionMarkerCount: null }] }),
  );
  set('hits/id', hitA!.id);
  secrets.push(hitA!.id);
  // Search policy (issue 12): one rule for every organization, naming no population.
  const [rule] = await db.insert(searchRules).values({ name: 'Matrix rule', searchingSampleTypes: ['Forensic, Unknown'], searchedSampleTypes: ['Convicted Offender'], analysisId: analysis!.id }).returning();
  set('search-rules/id', rule!.id);
  // Profile imports (issue 13): a parsed import of a member of organization A (private to them: others get 404).
  const [job] = await db.insert(profileImports).values({ userId: memberOfA.id, caseId: caseA!.id, organizationId: orgA.id, fileName: 'matrix.csv', state: 'parsed' }).returning();
  set('profile-imports/id', job!.id);
  secrets.push(job!.id);
  // Personal access tokens (issue 18): a token of a member of organization A (another user's revoke is 404).
  const [token] = await db.insert(accessTokens).values({ userId: memberOfA.id, name: 'Matrix token', tokenHash: 'matrix-hash', prefix: 'locus_pat_abcd', expiresAt: new Date(Date.now() + 86_400_000) }).returning();
  set('me/id', token!.id);
  // Issue 32: a service client an administrator with scope All may revoke (not the service persona's own).
  const revocable = newClientCredentials();
  const [client] = await db.insert(serviceClients).values({ name: 'Matrix revocable', clientId: revocable.clientId, secretHash: revocable.secretHash }).returning();
  set('service-clients/id', client!.id);
  // Issue 32, Prüm II: a foreign query (of that client, not the service persona) whose candidate is organization A's
  // profile; /network/:id names the release request, and as a foreign query's or an outbox entry's id it is nothing (404).
  const [foreignQuery] = await db.insert(foreignQueries).values({ serviceClientId: client!.id, reference: 'MATRIX-Q', requestingCountry: 'DE', requestingInstance: 'Matrix', chemistryId: chemistry!.id, markerCount: 13, stringency: 'high', candidateCount: 1 }).returning();
  const [release] = await db.insert(foreignQueryReleases).values({ foreignQueryId: foreignQuery!.id, profileId: profileA!.id, organizationId: orgA.id }).returning();
  set('network/id', release!.id);
  secrets.push(release!.id);
}, 60_000);
afterAll(() => t.close());

/** Fills a route's `:params` from the fixtures; undefined names a missing fixture. */
function urlFor(url: string): { url: string; params: Record<string, string> } | { missing: string } {
  const segment = url.split('/')[2] ?? '';
  const params: Record<string, string> = {};
  for (const [, name] of url.matchAll(/:([A-Za-z]+)/g)) {
    const value = fixtures.get(`${segment}/${name}`) ?? fixtures.get(`*/${name}`);
    if (value === undefined) return { missing: `${segment}/${name}` };
    params[name!] = value;
  }
  return { url: url.replace(/:([A-Za-z]+)/g, (_, name: string) => encodeURIComponent(params[name]!)), params };
}

/** The entity of each resource path segment (spec 7.1 resources, dash-case). */
const ENTITY_OF_SEGMENT: Record<string, Entity> = {
  organizations: 'Organizations',
  users: 'Users',
  'access-groups': 'AccessGroups',
  'case-types': 'CaseTypes',
  'sample-sources': 'SampleSources',
  laboratories: 'Laboratories',
  markers: 'Markers',
  'ystr-chemistries': 'YStrChemistries',
  'autosomal-chemistries': 'AutosomalChemistries',
  populations: 'Populations',
  'email-templates': 'EmailTemplates',
  citations: 'Citations',
  'analysis-groups': 'Analyses',
  analyses: 'Analyses',
  settings: 'Settings',
  cases: 'Cases',
  'involved-parties': 'Cases',
  'physical-items': 'Cases',
  'agency-files': 'Cases',
  profiles: 'Profiles',
  hits: 'Hits',
  'task-requests': 'TaskRequests',
  'search-rules': 'SearchRules',
  // Issue 32: the level's upload rules are an instance setting (read by all, changed by an administrator with scope All).
  'upload-eligibility-rules': 'Settings',
};
const VERB_OF_METHOD: Record<string, Verb> = { GET: 'Read', POST: 'Add', PUT: 'Edit', PATCH: 'Edit', DELETE: 'Delete' };

/**
 * Routes whose rule is not the convention (GET → Read, POST → Add, PUT → Edit, DELETE → Delete on
 * the entity of the last resource segment). Each is a decision a reviewer reads here.
 */
const EXCEPTIONS: Record<string, Access> = {
  'GET /api/openapi.json': { public: true },
  'GET /api/health': { public: true },
  'GET /api/client-config': { public: true },
  'GET /api/me': { signedIn: true },
  'POST /api/accept-licenses': { signedIn: true },
  // The general chemistry list serves both kinds: either kind's Read right (spec 7.1 "chemistries (general, …)").
  'GET /api/chemistries': READ_ANY_CHEMISTRY,
  'GET /api/chemistries/:id': READ_ANY_CHEMISTRY,
  // A kit's allele sizes, dyes and thresholds (issue 31): as the kit itself.
  'GET /api/chemistries/:id/alleles': READ_ANY_CHEMISTRY,
  // Uploading statistics changes an existing population: Edit, not Add (spec 6 names Add for creating one).
  'POST /api/populations/:id/statistics/preview': { entity: 'Populations', verb: 'Edit' },
  'POST /api/populations/:id/statistics': { entity: 'Populations', verb: 'Edit' },
  // Replacing a citation's file edits the citation.
  'POST /api/citations/:id/file': { entity: 'Citations', verb: 'Edit' },
  // Setting someone's password or issuing their set-password link: administrators (spec 6 keeps account security with them).
  'POST /api/users/:id/password': ADMINISTRATORS_ONLY,
  'POST /api/users/:id/password-link': ADMINISTRATORS_ONLY,
  // Everyone changes their own password.
  'PUT /api/me/password': { signedIn: true },
  // An organization's review settings (issue 18): its own Organizations rights, in that organization only.
  'GET /api/organizations/:id/review-settings': { entity: 'Organizations', verb: 'Read', orgParam: 'id' },
  'PUT /api/organizations/:id/review-settings': { entity: 'Organizations', verb: 'Edit', orgParam: 'id' },
  'GET /api/organizations/:id/report-settings': { entity: 'Organizations', verb: 'Read', orgParam: 'id' },
  'PUT /api/organizations/:id/report-settings': { entity: 'Organizations', verb: 'Edit', orgParam: 'id' },
  // Everyone keeps their own personal access tokens (issue 18); a token acts with its user's permissions.
  'GET /api/me/access-tokens': { signedIn: true },
  'POST /api/me/access-tokens': { signedIn: true },
  'DELETE /api/me/access-tokens/:id': { signedIn: true },
  // The case and profile forms offer their lists to whoever may fill them in.
  'GET /api/cases/form-options': CASE_FORM_ACCESS,
  'GET /api/profiles/form-options': PROFILE_FORM_ACCESS,
  // Parties, items and agency files are parts of a case: adding, changing or removing one edits the case.
  'POST /api/cases/:caseId/involved-parties': { entity: 'Cases', verb: 'Edit' },
  'DELETE /api/cases/:caseId/involved-parties/:id': { entity: 'Cases', verb: 'Edit' },
  'POST /api/cases/:caseId/physical-items': { entity: 'Cases', verb: 'Edit' },
  'DELETE /api/cases/:caseId/physical-items/:id': { entity: 'Cases', verb: 'Edit' },
  'POST /api/cases/:caseId/agency-files': { entity: 'Cases', verb: 'Edit' },
  'DELETE /api/cases/:caseId/agency-files/:id': { entity: 'Cases', verb: 'Edit' },
  // Spec 2.8: the settings tab needs ChangeSettings, the audit tabs ViewAudit.
  'PUT /api/cases/:id/settings': { entity: 'Cases', verb: 'ChangeSettings' },
  'GET /api/cases/:caseId/audit': { entity: 'Cases', verb: 'ViewAudit' },
  'GET /api/profiles/:id/audit': { entity: 'Profiles', verb: 'ViewAudit' },
  // Issue 18: exporting a case's or profile's trail needs what viewing it needs; a period's trail is the organization's audit
  // (Organizations ViewAudit there: administrators, or a role given it; every organization only with scope All).
  'GET /api/cases/:caseId/audit/export': { entity: 'Cases', verb: 'ViewAudit' },
  'GET /api/profiles/:id/audit/export': { entity: 'Profiles', verb: 'ViewAudit' },
  'GET /api/organizations/:orgId/audit': { entity: 'Organizations', verb: 'ViewAudit', orgParam: 'orgId' },
  'GET /api/organizations/:orgId/audit/export': { entity: 'Organizations', verb: 'ViewAudit', orgParam: 'orgId' },
  // Reviewing a profile changes it (Edit); returning it to pending is the Reset right, as for hits.
  // The marker entry form edits the profile (spec 2.8: …/edit/markers needs Profiles Edit), not the Markers reference list.
  'PUT /api/profiles/:id/markers': { entity: 'Profiles', verb: 'Edit' },
  // Running the calculator reads (it stores nothing); the profiles' own Read right is checked inside.
  'POST /api/analyses/:id/analyze': { entity: 'Analyses', verb: 'Read' },
  'POST /api/analyses/:id/report': { entity: 'Analyses', verb: 'Read' },
  // The pedigree LR (issue 16) is a calculator too: it stores nothing; placing a stored profile checks Profiles Read inside.
  'POST /api/pedigree-lr': { entity: 'Analyses', verb: 'Read' },
  'POST /api/mixture-lr': { entity: 'Analyses', verb: 'Read' },
  'POST /api/continuous-lr': { entity: 'Analyses', verb: 'Read' },
  // Issue 31: the continuous calculation's report and its contributor-number job answer whoever may run the calculation.
  'POST /api/continuous-lr/report': { entity: 'Analyses', verb: 'Read' },
  'POST /api/continuous-lr/contributor-search': { entity: 'Analyses', verb: 'Read' },
  'GET /api/continuous-lr/contributor-search/:id': { entity: 'Analyses', verb: 'Read' },
  'POST /api/continuous-lr/contributor-search/:id/cancel': { entity: 'Analyses', verb: 'Read' },
  // Missing-person families are part of their case (issue 16).
  'GET /api/cases/:caseId/families': { entity: 'Cases', verb: 'Read' },
  'POST /api/cases/:caseId/families': { entity: 'Cases', verb: 'Edit' },
  'PUT /api/families/:id': { entity: 'Cases', verb: 'Edit' },
  'DELETE /api/families/:id': { entity: 'Cases', verb: 'Edit' },
  'POST /api/families/:id/activate': { entity: 'Cases', verb: 'Edit' },
  'POST /api/families/:id/deactivate': { entity: 'Cases', verb: 'Edit' },
  'POST /api/profiles/:id/approve': { entity: 'Profiles', verb: 'Edit' },
  'POST /api/profiles/:id/reject': { entity: 'Profiles', verb: 'Edit' },
  'POST /api/profiles/:id/reset': { entity: 'Profiles', verb: 'Reset' },
  'POST /api/profiles/:id/reset-delete': { entity: 'Profiles', verb: 'Reset' },
  // Bulk review (issue 18): the single decisions' rights; each record is checked again on its own.
  'POST /api/profiles/bulk-review': { entity: 'Profiles', verb: 'Edit' },
  'POST /api/hits/bulk-decision': { entity: 'Hits', verb: 'Publish' },
  // Keyboard search (spec 2.6) reads the organization's profiles and stores nothing but an audit row.
  // The organization is in the body (spec 7.1 rewrites organizations/{id}/profiles to profiles); the handler checks Read there.
  'POST /api/profiles/get-all-possible-hits': { entity: 'Profiles', verb: 'Read' },
  // The analyses its form offers: their names show in its answer anyway.
  'GET /api/profiles/keyboard-search-analyses': { entity: 'Profiles', verb: 'Read' },
  'POST /api/mixture-search': { entity: 'Profiles', verb: 'Read' },
  // The background searches of approved profiles name those profiles (issue 6: long runs show progress).
  'GET /api/organizations/:orgId/searches': { entity: 'Profiles', verb: 'Read', orgParam: 'orgId' },
  // Dashboard (issue 6): a statistic needs Read of what it counts; the organization's members are the task assignees (TaskRequests Read).
  'GET /api/stats/:key': STATS_ACCESS,
  'GET /api/organizations/:orgId/members': { entity: 'TaskRequests', verb: 'Read', orgParam: 'orgId' },
  // Hits (issue 6, spec 2.4 and 6): the Review, Published and Rejected lists need Hits Publish (All needs Read, the convention);
  // publishing and rejecting need Publish, reset needs Reset.
  'GET /api/organizations/:orgId/pending-hits': { entity: 'Hits', verb: 'Publish', orgParam: 'orgId' },
  'GET /api/organizations/:orgId/published-hits': { entity: 'Hits', verb: 'Publish', orgParam: 'orgId' },
  'GET /api/organizations/:orgId/rejected-hits': { entity: 'Hits', verb: 'Publish', orgParam: 'orgId' },
  'GET /api/cases/:caseId/pending-hits': { entity: 'Hits', verb: 'Publish' },
  'GET /api/cases/:caseId/published-hits': { entity: 'Hits', verb: 'Publish' },
  'GET /api/cases/:caseId/rejected-hits': { entity: 'Hits', verb: 'Publish' },
  'GET /api/profiles/:id/pending-hits': { entity: 'Hits', verb: 'Publish' },
  'GET /api/profiles/:id/published-hits': { entity: 'Hits', verb: 'Publish' },
  'GET /api/profiles/:id/rejected-hits': { entity: 'Hits', verb: 'Publish' },
  'POST /api/hits/:id/publish': { entity: 'Hits', verb: 'Publish' },
  'POST /api/hits/:id/reject': { entity: 'Hits', verb: 'Publish' },
  'POST /api/hits/:id/reset': { entity: 'Hits', verb: 'Reset' },
  'POST /api/hits/:id/weigh-again': { entity: 'Hits', verb: 'Publish' },
  // Familial search on request (issue 12): whoever reviews hits looks for a profile's relatives and promotes candidates to pending hits.
  'GET /api/profiles/:id/familial-search/options': { entity: 'Hits', verb: 'Publish' },
  'POST /api/profiles/:id/familial-search': { entity: 'Hits', verb: 'Publish' },
  'POST /api/profiles/:id/familial-search/promote': { entity: 'Hits', verb: 'Publish' },
  // Which search rules concern a profile (issue 12): whoever may read the profile may see what the search policy does with it.
  'GET /api/profiles/:id/search-rules': { entity: 'Profiles', verb: 'Read' },
  // Whether a profile may go to the upper level (issue 32): whoever may read the profile reads its verdict.
  'GET /api/profiles/:id/upload-eligibility': { entity: 'Profiles', verb: 'Read' },
  // Live updates (issues 12, 18): the event stream says when the organization's hits, searches or profiles change; each user hears only what they read.
  'GET /api/organizations/:orgId/events': ORGANIZATION_EVENTS_ACCESS,
  // Waiting for review (issue 18): whoever sees either review list sees its figure (the other is null).
  'GET /api/organizations/:orgId/review-counts': REVIEW_COUNTS_ACCESS,
  // Profile imports (issue 13) are part of adding profiles: every step of one, reading included, needs Profiles Add.
  'POST /api/profile-imports': { entity: 'Profiles', verb: 'Add' },
  'GET /api/profile-imports': { entity: 'Profiles', verb: 'Add' },
  'GET /api/profile-imports/:id': { entity: 'Profiles', verb: 'Add' },
  'GET /api/profile-imports/:id/profiles': { entity: 'Profiles', verb: 'Add' },
  'POST /api/profile-imports/:id/add': { entity: 'Profiles', verb: 'Add' },
  'POST /api/profile-imports/:id/cancel': { entity: 'Profiles', verb: 'Add' },
  'POST /api/profile-imports/:id/resume': { entity: 'Profiles', verb: 'Add' },
  'DELETE /api/profile-imports/:id': { entity: 'Profiles', verb: 'Add' },
  // Database self-comparison (issue 15): the report names the organization's duplicate profiles and acting on it edits them: Profiles Read and Edit.
  'POST /api/organizations/:orgId/self-comparison': selfComparisonAccess,
  'GET /api/organizations/:orgId/self-comparison': selfComparisonAccess,
  'POST /api/organizations/:orgId/self-comparison/cancel': selfComparisonAccess,
  'GET /api/organizations/:orgId/self-comparison/pairs': selfComparisonAccess,
  'GET /api/organizations/:orgId/self-comparison/pairs.csv': selfComparisonAccess,
  // The e-mail outbox is read by those who manage e-mail templates (administrators with scope All).
  'GET /api/email-outbox': { entity: 'EmailTemplates', verb: 'Edit' },
  // The network of laboratories (issue 32): service clients, this instance's settings and its lower instances are an
  // administrator with scope All's; another instance's service client may ask this one's name and level, nothing else.
  'GET /api/service-clients': NETWORK_ADMINISTRATION,
  'POST /api/service-clients': NETWORK_ADMINISTRATION,
  'POST /api/service-clients/:id/revoke': NETWORK_ADMINISTRATION,
  'GET /api/network/instance': NETWORK_PEER,
  'GET /api/network/settings': NETWORK_ADMINISTRATION,
  'PUT /api/network/settings': NETWORK_ADMINISTRATION,
  'POST /api/network/settings/test-connection': NETWORK_ADMINISTRATION,
  'GET /api/network/lower-instances': NETWORK_ADMINISTRATION,
  'POST /api/network/lower-instances': NETWORK_ADMINISTRATION,
  // Foreign queries (Prüm II): only a foreign instance's service client sends one and polls its answer; releasing a
  // candidate's data is a hit decision of the laboratory holding the profile (Hits Publish there, checked in the handler).
  'POST /api/network/foreign-queries': FOREIGN_SENDER,
  'GET /api/network/foreign-queries/:id': FOREIGN_SENDER,
  'GET /api/network/release-requests': { entity: 'Hits', verb: 'Publish' },
  'POST /api/network/release-requests/:id/release': { entity: 'Hits', verb: 'Publish' },
  'POST /api/network/release-requests/:id/refuse': { entity: 'Hits', verb: 'Publish' },
  // The upload pipeline: only another instance's service client sends batches; the outbox is the administrators'.
  'POST /api/network/batches': NETWORK_SERVICE,
  'GET /api/network/outbox': NETWORK_ADMINISTRATION,
  'POST /api/network/outbox/:id/retry': NETWORK_ADMINISTRATION,
  'POST /api/network/outbox/deliver': NETWORK_ADMINISTRATION,
  // Candidate matches sent down: a lower instance's service client pulls and acknowledges them; the laboratory reads
  // them as hits and decides them as it publishes a hit (in the profile's organization, checked in the handler).
  'GET /api/network/candidate-matches': NETWORK_SERVICE,
  'POST /api/network/candidate-matches/received': NETWORK_SERVICE,
  'GET /api/candidate-matches': { entity: 'Hits', verb: 'Read' },
  'POST /api/candidate-matches/:id/confirm': { entity: 'Hits', verb: 'Publish' },
  'POST /api/candidate-matches/:id/reject': { entity: 'Hits', verb: 'Publish' },
};

/** Routes answering a stream that stays open (server-sent events): read as a stream, not to its end. */
const STREAMS = new Set(['GET /api/organizations/:orgId/events']);

/** The body a route answered; an open stream's first chunk, after which it is left to drain until the app closes. */
async function bodyOf(res: LightMyRequestResponse, streaming: boolean): Promise<string> {
  if (!streaming) return res.body;
  const stream = res.stream();
  if (res.statusCode !== 200) {
    let text = '';
    for await (const chunk of stream) text += String(chunk);
    return text;
  }
  const first = await new Promise<string>((resolve) => stream.once('data', (chunk) => resolve(String(chunk))));
  stream.resume();
  return first;
}

/** The rule a route should have, from the spec's conventions and the exceptions above (not from the route itself). */
function expectedAccess(method: string, url: string): Access | string {
  const exception = EXCEPTIONS[`${method} ${url}`];
  if (exception) return exception;
  const segments = url.split('/').slice(2);
  const resources = segments.filter((s) => ENTITY_OF_SEGMENT[s]);
  const last = resources.at(-1);
  if (!last) return `no entity for ${url}: add it to ENTITY_OF_SEGMENT or EXCEPTIONS`;
  const verb = VERB_OF_METHOD[method];
  if (!verb) return `no verb for ${method}`;
  const orgParam = segments[0] === 'organizations' && segments[1] === ':orgId' && last !== 'organizations' ? 'orgId' : undefined;
  return { entity: ENTITY_OF_SEGMENT[last]!, verb, ...(orgParam ? { orgParam } : {}) };
}

function expectedAllowed(access: Access, persona: Persona, params: Record<string, string>): boolean {
  if ('public' in access) return true;
  if (!persona.principal) return false;
  return allows(access, persona.principal, { params } as never);
}

const describeAccess = (a: Access) => ('public' in a ? 'public' : 'signedIn' in a ? 'signed-in' : 'rule' in a ? `rule: ${a.rule}` : `${a.entity} ${a.verb}${a.orgParam ? ` in :${a.orgParam}` : ''}`);

describe('authorization matrix (generated from the route list)', () => {
  it('covers a real route list', () => {
    expect(t.app.accessCatalogue.length).toBeGreaterThan(10);
  });

  it('has a fixture for every path parameter of every route', () => {
    const missing = t.app.accessCatalogue.map((r) => ({ r, u: urlFor(r.url) })).filter((x) => 'missing' in x.u);
    expect(missing.map((x) => `${x.r.method} ${x.r.url}: ${'missing' in x.u ? x.u.missing : ''}`)).toEqual([]);
  });

  it('declares, on every route, the rule the spec conventions (or a listed exception) give', () => {
    const mismatches = t.app.accessCatalogue.flatMap((route) => {
      const expected = expectedAccess(route.method, route.url);
      if (typeof expected === 'string') return [`${route.method} ${route.url}: ${expected}`];
      const [declared, wanted] = [describeAccess(route.access), describeAccess(expected)];
      return declared === wanted ? [] : [`${route.method} ${route.url}: declares ${declared}, expected ${wanted}`];
    });
    expect(mismatches).toEqual([]);
  });

  // Deletes run last so the other calls still find their fixtures.
  const ordered = () => [...t.app.accessCatalogue].sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));

  it('answers every route as its rule says, for each of the six personas', async () => {
    const failures: string[] = [];
    for (const route of ordered()) {
      const target = urlFor(route.url);
      if ('missing' in target) continue;
      for (const persona of personas) {
        const streaming = STREAMS.has(`${route.method} ${route.url}`);
        const res = await t.app.inject({
          method: route.method as 'GET',
          url: target.url,
          headers: persona.token ? { authorization: `Bearer ${persona.token}` } : {},
          ...(['POST', 'PUT', 'PATCH'].includes(route.method) ? { payload: {} } : {}),
          ...(streaming ? { payloadAsStream: true } : {}),
        });
        const body = await bodyOf(res, streaming);
        const expected = expectedAccess(route.method, route.url);
        const allowed = expectedAllowed(typeof expected === 'string' ? route.access : expected, persona, target.params);
        const where = `${route.method} ${route.url} as ${persona.name}: ${res.statusCode}`;
        if (!('public' in route.access) && !persona.token) {
          if (res.statusCode !== 401) failures.push(`${where}, expected 401`);
        } else if (!allowed) {
          if (res.statusCode !== 403) failures.push(`${where}, expected 403`);
        } else if (persona.name === 'user of another organization') {
          // Allowed by role, but organization A's records stay invisible: refused, or absent from lists.
          const leaks = res.statusCode < 300 ? secrets.filter((id) => body.includes(id)) : [];
          if (leaks.length > 0) failures.push(`${where}, leaked organization A's ${leaks.join(', ')}`);
          if (res.statusCode === 401) failures.push(`${where}, expected to pass authentication`);
        } else if (persona.name === 'service client' && secrets.some((id) => res.statusCode < 300 && body.includes(id))) {
          // Another instance learns nothing of the laboratory's records from the calls it may make.
          failures.push(`${where}, answered organization A's records to a service client`);
        } else if (res.statusCode === 401 || res.statusCode === 403 || res.statusCode >= 500) {
          failures.push(`${where}, expected to be let through`);
        }
      }
    }
    expect(failures).toEqual([]);
    // Every route × six personas, one request each: minutes on a loaded two-core machine, not seconds (the sixth, the
    // service client, added a fifth to the time the five took).
  }, 216_000);
});

describe('a route without an access rule', () => {
  it('stops the application from starting', async () => {
    const app = Fastify();
    const starting = (async () => {
      await app.register(async (api) => {
        guardRoutes(app, api);
        api.get('/unguarded', async () => 'open');
      });
      await app.ready();
    })();
    await expect(starting).rejects.toThrow('GET /unguarded declares no access rule');
  });
});
