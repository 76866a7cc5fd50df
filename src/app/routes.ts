import type { Entity, Verb } from '../../core/permissions';

/**
 * The one route table of product-spec section 2. Each route has its spec name (or, where the spec
 * names none, a name in the same style), its breadcrumb label as the spec writes it, the permission
 * it needs where the spec states one, and an `href` builder typed by the pattern's parameters.
 */

export interface RoutePermission {
  entity: Entity;
  verb: Verb;
  /** When the record id (the breadcrumb's param) is not a GUID the record is new: adding needs this verb. */
  verbWhenNew?: Verb;
  /** The path parameter holding the record id, when the breadcrumb is not that parameter. */
  recordParam?: string;
}

/** A fixed label, or the value of a path parameter (New when it is not a GUID, spec 5). */
export type BreadcrumbSpec = string | { param: string };

interface RouteSpec<Name extends string> {
  pattern: string;
  /** Page heading and document title; the coming page names the area by it. */
  title: string;
  breadcrumb: BreadcrumbSpec;
  parent?: Name;
  permission?: RoutePermission;
  /** Where to go instead when `permission` is refused (e.g. the hit tab every user may see). */
  fallback?: Name;
  /** Sign-in routes live outside /{orgId} and need no session. */
  public?: true;
  /** A `caseId` query parameter other than `new` makes the breadcrumb lead back to that case (spec 2.5). */
  linksBackToCase?: true;
}

type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

export type ParamsOf<P extends string> = { [K in ParamNames<P>]: string };

/** Fills a pattern's `:params`, encoding each value, and appends an optional query. */
export function buildHref(pattern: string, params: Readonly<Record<string, string>>, query?: Readonly<Record<string, string>>): string {
  const path = pattern.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === '') throw new Error(`Route ${pattern} needs the parameter "${name}"`);
    return encodeURIComponent(value);
  });
  const search = query && Object.keys(query).length > 0 ? `?${new URLSearchParams(query).toString()}` : '';
  return path + search;
}

type Routes<T> = {
  [K in keyof T]: T[K] & {
    name: K;
    href(params: T[K] extends { pattern: infer P extends string } ? ParamsOf<P> : never, query?: Record<string, string>): string;
  };
};

function defineRoutes<const T extends Record<string, RouteSpec<Extract<keyof T, string>>>>(specs: T): Routes<T> {
  const entries = Object.entries(specs).map(([name, spec]) => [
    name,
    { ...spec, name, href: (params: Record<string, string>, query?: Record<string, string>) => buildHref(spec.pattern, params, query) },
  ]);
  return Object.fromEntries(entries) as Routes<T>;
}

const read = (entity: Entity): RoutePermission => ({ entity, verb: 'Read' });
const edit = (entity: Entity): RoutePermission => ({ entity, verb: 'Edit', verbWhenNew: 'Add' });
const id = { param: 'id' } as const;

export const routes = defineRoutes({
  // 2.1 General: sign-in routes, outside /{orgId}
  Root: { pattern: '/', title: 'Locus', breadcrumb: 'Locus', public: true },
  Authentication: { pattern: '/authentication', title: 'Sign in', breadcrumb: 'Sign in', public: true },
  AuthenticationCallback: { pattern: '/authentication/callback', title: 'Signing in', breadcrumb: 'Sign in', public: true },
  AuthenticationSilentRenew: { pattern: '/authentication/silent-renew', title: 'Renewing session', breadcrumb: 'Sign in', public: true },
  AuthenticationLoggedOut: { pattern: '/authentication/logged-out', title: 'Signed out', breadcrumb: 'Signed out', public: true },

  // 2.2 Dashboard
  Dashboard: { pattern: '/:orgId', title: 'Dashboard', breadcrumb: 'Dashboard' },

  // 2.3 Profiles
  Profiles: { pattern: '/:orgId/profiles', title: 'Profiles', breadcrumb: 'Profiles', parent: 'Dashboard', permission: read('Profiles') },
  ProfilesReview: { pattern: '/:orgId/profiles/review', title: 'Profile review', breadcrumb: 'Review', parent: 'Profiles', permission: read('Profiles') },
  // Not in the spec (issue 15): the self-comparison before an audit; the server asks Profiles Read and Edit.
  ProfilesSelfComparison: { pattern: '/:orgId/profiles/self-comparison', title: 'Database self-comparison', breadcrumb: 'Self-comparison', parent: 'Profiles', permission: { entity: 'Profiles', verb: 'Edit' } },

  // 2.4 Hits: Review, Published and Rejected need Hits Publish; All is shown to every user
  Hits: { pattern: '/:orgId/hits', title: 'Hit review', breadcrumb: 'Hits', parent: 'Dashboard', permission: { entity: 'Hits', verb: 'Publish' }, fallback: 'HitsAll' },
  HitsPublished: { pattern: '/:orgId/hits/published', title: 'Published hits', breadcrumb: 'Published', parent: 'Hits', permission: { entity: 'Hits', verb: 'Publish' } },
  HitsRejected: { pattern: '/:orgId/hits/rejected', title: 'Rejected hits', breadcrumb: 'Rejected', parent: 'Hits', permission: { entity: 'Hits', verb: 'Publish' } },
  HitsAll: { pattern: '/:orgId/hits/all', title: 'All hits', breadcrumb: 'All', parent: 'Hits' },
  // Not in the spec (issue 32, Prüm II): foreign queries' candidates waiting for the holding laboratory to release or refuse.
  ForeignQueries: { pattern: '/:orgId/foreign-queries', title: 'Foreign queries', breadcrumb: 'Foreign queries', parent: 'Dashboard', permission: { entity: 'Hits', verb: 'Publish' } },
  // Not in the spec (issue 32): matches the upper level found for this laboratory's uploaded profiles, reviewed like hits.
  CandidateMatches: { pattern: '/:orgId/candidate-matches', title: 'Candidate matches', breadcrumb: 'Candidate matches', parent: 'Dashboard', permission: read('Hits') },
  HitView: { pattern: '/:orgId/hits/:id', title: 'Hit', breadcrumb: 'View Hit', parent: 'Hits', permission: read('Hits') },

  // 2.5 Analyses (the calculator)
  // Not in the spec (issue 18): every analysis by group, from the navigation; each opens its calculator without a case.
  AnalysisList: { pattern: '/:orgId/analyses', title: 'Analyses', breadcrumb: 'Analyses', parent: 'Dashboard', permission: read('Analyses') },
  AnalysisGroupAnalyses: { pattern: '/:orgId/analyses/:analysisGroupId', title: 'Analyses', breadcrumb: 'Analyses', parent: 'Dashboard', permission: read('Analyses') },
  Analyses: { pattern: '/:orgId/analyses/:analysisGroupId/:analysisId', title: 'Analysis calculator', breadcrumb: 'Analysis', parent: 'AnalysisGroupAnalyses', permission: read('Analyses'), linksBackToCase: true },

  // 2.6 Keyboard search, About us, Contact
  KeyboardSearch: { pattern: '/:orgId/keyboard-search', title: 'Keyboard search', breadcrumb: 'Keyboard search', parent: 'Dashboard' },
  // Not in the spec (issue 17): the mixture search of a typed mixture, linked from the keyboard search; the server also asks Analyses Read.
  MixtureSearch: { pattern: '/:orgId/mixture-search', title: 'Mixture search', breadcrumb: 'Mixture search', parent: 'KeyboardSearch', permission: read('Profiles') },
  // Not in the spec (issue 18): the signed-in user's personal access tokens, from the header beside Change password; every user may open it.
  AccessTokens: { pattern: '/:orgId/access-tokens', title: 'Access tokens', breadcrumb: 'Access tokens', parent: 'Dashboard' },
  About: { pattern: '/:orgId/about', title: 'About us', breadcrumb: 'About us', parent: 'Dashboard' },
  Contact: { pattern: '/:orgId/contact', title: 'Contact', breadcrumb: 'Contact', parent: 'Dashboard' },

  // 2.7 Administration: a table at the area path and an edit route at {id}/edit (id may be new)
  Users: { pattern: '/:orgId/users', title: 'Users', breadcrumb: 'Users', parent: 'Dashboard', permission: read('Users') },
  UsersEdit: { pattern: '/:orgId/users/:id/edit', title: 'User', breadcrumb: id, parent: 'Users', permission: edit('Users') },
  AccessGroups: { pattern: '/:orgId/access-groups', title: 'Roles', breadcrumb: 'Roles', parent: 'Dashboard', permission: read('AccessGroups') },
  AccessGroupsEdit: { pattern: '/:orgId/access-groups/:id/edit', title: 'Role', breadcrumb: id, parent: 'AccessGroups', permission: edit('AccessGroups') },
  Organizations: { pattern: '/:orgId/organizations', title: 'Organizations', breadcrumb: 'Organizations', parent: 'Dashboard', permission: read('Organizations') },
  OrganizationsEdit: { pattern: '/:orgId/organizations/:id/edit', title: 'Organization', breadcrumb: id, parent: 'Organizations', permission: edit('Organizations') },
  CaseTypes: { pattern: '/:orgId/case-types', title: 'Case types', breadcrumb: 'Case types', parent: 'Dashboard', permission: read('CaseTypes') },
  CaseTypesEdit: { pattern: '/:orgId/case-types/:id/edit', title: 'Case type', breadcrumb: id, parent: 'CaseTypes', permission: edit('CaseTypes') },
  SampleSources: { pattern: '/:orgId/sample-sources', title: 'Sample sources', breadcrumb: 'Sample sources', parent: 'Dashboard', permission: read('SampleSources') },
  SampleSourcesEdit: { pattern: '/:orgId/sample-sources/:id/edit', title: 'Sample source', breadcrumb: id, parent: 'SampleSources', permission: edit('SampleSources') },
  YStrChemistries: { pattern: '/:orgId/ystr-chemistries', title: 'Y-STR chemistries', breadcrumb: 'Y-STR chemistries', parent: 'Dashboard', permission: read('YStrChemistries') },
  YStrChemistriesEdit: { pattern: '/:orgId/ystr-chemistries/:id/edit', title: 'Y-STR chemistry', breadcrumb: id, parent: 'YStrChemistries', permission: edit('YStrChemistries') },
  AutosomalChemistries: { pattern: '/:orgId/autosomal-chemistries', title: 'Autosomal chemistries', breadcrumb: 'Autosomal chemistries', parent: 'Dashboard', permission: read('AutosomalChemistries') },
  AutosomalChemistriesEdit: { pattern: '/:orgId/autosomal-chemistries/:id/edit', title: 'Autosomal chemistry', breadcrumb: id, parent: 'AutosomalChemistries', permission: edit('AutosomalChemistries') },
  Markers: { pattern: '/:orgId/markers', title: 'Markers', breadcrumb: 'Markers', parent: 'Dashboard', permission: read('Markers') },
  MarkersEdit: { pattern: '/:orgId/markers/:id/edit', title: 'Marker', breadcrumb: id, parent: 'Markers', permission: edit('Markers') },
  Populations: { pattern: '/:orgId/populations', title: 'Populations', breadcrumb: 'Populations', parent: 'Dashboard', permission: read('Populations') },
  PopulationsEdit: { pattern: '/:orgId/populations/:id/edit', title: 'Population', breadcrumb: id, parent: 'Populations', permission: edit('Populations') },
  PopulationsUpload: { pattern: '/:orgId/populations/:id/upload', title: 'Upload statistics', breadcrumb: 'Upload Statistics', parent: 'PopulationsEdit', permission: { entity: 'Populations', verb: 'Edit' } },
  Laboratories: { pattern: '/:orgId/laboratories', title: 'Laboratories', breadcrumb: 'Laboratories', parent: 'Dashboard', permission: read('Laboratories') },
  LaboratoriesEdit: { pattern: '/:orgId/laboratories/:id/edit', title: 'Laboratory', breadcrumb: id, parent: 'Laboratories', permission: edit('Laboratories') },
  Citations: { pattern: '/:orgId/citations', title: 'Citations', breadcrumb: 'Citations', parent: 'Dashboard', permission: read('Citations') },
  CitationsEdit: { pattern: '/:orgId/citations/:id/edit', title: 'Citation', breadcrumb: id, parent: 'Citations', permission: edit('Citations') },
  AnalysisGroups: { pattern: '/:orgId/analysis-groups', title: 'Analysis groups', breadcrumb: 'Analysis groups', parent: 'Dashboard', permission: read('Analyses') },
  AnalysisGroupEdit: { pattern: '/:orgId/analysis-groups/:analysisGroupId', title: 'Analysis group', breadcrumb: { param: 'analysisGroupId' }, parent: 'AnalysisGroups', permission: edit('Analyses') },
  AnalysisEdit: { pattern: '/:orgId/analysis-groups/:analysisGroupId/analyses/:analysisId', title: 'Analysis', breadcrumb: { param: 'analysisId' }, parent: 'AnalysisGroupEdit', permission: edit('Analyses') },
  FormulaEdit: { pattern: '/:orgId/analysis-groups/:analysisGroupId/analyses/:analysisId/formulae/:formulaId', title: 'Formula', breadcrumb: { param: 'formulaId' }, parent: 'AnalysisEdit', permission: edit('Analyses') },
  ConstantEdit: { pattern: '/:orgId/analysis-groups/:analysisGroupId/analyses/:analysisId/constants/:constantId', title: 'Constant', breadcrumb: { param: 'constantId' }, parent: 'AnalysisEdit', permission: edit('Analyses') },
  // The search policy (ARCHITECTURE.md "Search policy"): readers open a rule read-only, adding needs SearchRules Add.
  SearchRules: { pattern: '/:orgId/search-rules', title: 'Search rules', breadcrumb: 'Search rules', parent: 'Dashboard', permission: read('SearchRules') },
  SearchRulesEdit: { pattern: '/:orgId/search-rules/:id/edit', title: 'Search rule', breadcrumb: id, parent: 'SearchRules', permission: { entity: 'SearchRules', verb: 'Read', verbWhenNew: 'Add' } },
  // Not in the spec (issue 32): the upper level's upload eligibility rules, an instance setting everyone reads; only an administrator with scope All saves.
  UploadEligibilityRules: { pattern: '/:orgId/upload-eligibility-rules', title: 'Upload eligibility', breadcrumb: 'Upload eligibility', parent: 'Dashboard', permission: read('Settings') },
  EmailTemplates: { pattern: '/:orgId/email-templates', title: 'Email templates', breadcrumb: 'Email templates', parent: 'Dashboard', permission: read('EmailTemplates') },
  EmailTemplateForm: { pattern: '/:orgId/email-templates/:id', title: 'Email template', breadcrumb: id, parent: 'EmailTemplates', permission: edit('EmailTemplates') },
  // Not in the spec (issue 32): the network of laboratories, an administrator with scope All's (Settings Edit is exactly that).
  ServiceClients: { pattern: '/:orgId/service-clients', title: 'Service clients', breadcrumb: 'Service clients', parent: 'Dashboard', permission: { entity: 'Settings', verb: 'Edit' } },
  NetworkSettings: { pattern: '/:orgId/network', title: 'Network', breadcrumb: 'Network', parent: 'Dashboard', permission: { entity: 'Settings', verb: 'Edit' } },
  NetworkDelivery: { pattern: '/:orgId/network/delivery', title: 'Network delivery', breadcrumb: 'Network delivery', parent: 'NetworkSettings', permission: { entity: 'Settings', verb: 'Edit' } },
  // Not in the spec (issue 18): the organization's audit trail over a period, and its exports (Organizations ViewAudit: administrators).
  AuditTrail: { pattern: '/:orgId/audit', title: 'Audit trail', breadcrumb: 'Audit trail', parent: 'Dashboard', permission: { entity: 'Organizations', verb: 'ViewAudit' } },

  // 2.8 Cases (the case view's tabs share the title Case: the heading names the case, the crumb the tab)
  Cases: { pattern: '/:orgId/cases', title: 'Cases', breadcrumb: 'Cases', parent: 'Dashboard', permission: read('Cases') },
  CaseEdit: { pattern: '/:orgId/cases/:caseId/edit', title: 'Case', breadcrumb: { param: 'caseId' }, parent: 'Cases', permission: edit('Cases') },
  CaseInvolvedParties: { pattern: '/:orgId/cases/:caseId', title: 'Case', breadcrumb: { param: 'caseId' }, parent: 'Cases', permission: read('Cases') },
  CaseItems: { pattern: '/:orgId/cases/:caseId/items', title: 'Case', breadcrumb: 'Items', parent: 'CaseInvolvedParties', permission: read('Cases') },
  CaseHits: { pattern: '/:orgId/cases/:caseId/hits', title: 'Case', breadcrumb: 'Hits', parent: 'CaseInvolvedParties', permission: { entity: 'Hits', verb: 'Publish' }, fallback: 'CaseHitsAll' },
  CaseHitsPublished: { pattern: '/:orgId/cases/:caseId/hits/published', title: 'Case', breadcrumb: 'Published', parent: 'CaseHits', permission: { entity: 'Hits', verb: 'Publish' } },
  CaseHitsRejected: { pattern: '/:orgId/cases/:caseId/hits/rejected', title: 'Case', breadcrumb: 'Rejected', parent: 'CaseHits', permission: { entity: 'Hits', verb: 'Publish' } },
  CaseHitsAll: { pattern: '/:orgId/cases/:caseId/hits/all', title: 'Case', breadcrumb: 'All', parent: 'CaseHits', permission: read('Cases') },
  CaseProfiles: { pattern: '/:orgId/cases/:caseId/profiles', title: 'Case', breadcrumb: 'Profiles', parent: 'CaseInvolvedParties', permission: read('Profiles') },
  CaseAudit: { pattern: '/:orgId/cases/:caseId/audit', title: 'Case', breadcrumb: 'Audit', parent: 'CaseInvolvedParties', permission: { entity: 'Cases', verb: 'ViewAudit' } },
  CaseSettings: { pattern: '/:orgId/cases/:caseId/settings', title: 'Case', breadcrumb: 'Settings', parent: 'CaseInvolvedParties', permission: { entity: 'Cases', verb: 'ChangeSettings' } },
  // Parties and items are parts of a case: adding one edits the case (the server asks Cases Edit too).
  PhysicalItemEdit: { pattern: '/:orgId/cases/:caseId/items/:id/edit', title: 'Physical item', breadcrumb: id, parent: 'CaseItems', permission: { entity: 'Cases', verb: 'Edit' } },
  // "invloved" is the spec's spelling of this path (2.8), kept so existing links keep working.
  InvolvedPartyEdit: { pattern: '/:orgId/cases/:caseId/invloved-parties/:id/edit', title: 'Involved party', breadcrumb: id, parent: 'CaseInvolvedParties', permission: { entity: 'Cases', verb: 'Edit' } },
  ProfilesView: { pattern: '/:orgId/cases/:caseId/profiles/:sampleid', title: 'Profile', breadcrumb: { param: 'sampleid' }, parent: 'CaseProfiles', permission: read('Profiles') },
  ProfileMarkers: { pattern: '/:orgId/cases/:caseId/profiles/:sampleid/markers', title: 'Profile markers', breadcrumb: 'Markers', parent: 'ProfilesView', permission: read('Markers') },
  ProfileHits: { pattern: '/:orgId/cases/:caseId/profiles/:sampleid/hits', title: 'Profile hits', breadcrumb: 'Hits', parent: 'ProfilesView', permission: read('Hits') },
  ProfileAudit: { pattern: '/:orgId/cases/:caseId/profiles/:sampleid/audit', title: 'Profile audit trail', breadcrumb: 'Audit', parent: 'ProfilesView', permission: { entity: 'Profiles', verb: 'ViewAudit' } },
  ProfileEdit: { pattern: '/:orgId/cases/:caseId/profiles/:sampleid/edit', title: 'Edit profile', breadcrumb: 'Edit', parent: 'ProfilesView', permission: { entity: 'Profiles', verb: 'Edit', verbWhenNew: 'Add', recordParam: 'sampleid' } },
  ProfileMarkersEdit: { pattern: '/:orgId/cases/:caseId/profiles/:sampleid/edit/markers', title: 'Marker entry', breadcrumb: 'Markers', parent: 'ProfileEdit', permission: { entity: 'Profiles', verb: 'Edit' } },
  ProfileUpload: { pattern: '/:orgId/cases/:caseId/profiles/:sampleid/upload', title: 'Profile upload', breadcrumb: 'Upload', parent: 'ProfilesView', permission: { entity: 'Profiles', verb: 'Add' } },
  // Not in the spec (issue 17): a forensic profile's mixture search; the server also asks Analyses Read.
  ProfileMixtureSearch: { pattern: '/:orgId/cases/:caseId/profiles/:sampleid/mixture-search', title: 'Mixture search', breadcrumb: 'Mixture search', parent: 'ProfilesView', permission: read('Profiles') },
});

export type RouteName = keyof typeof routes;

/** Any route of the table, for code that walks it generically (matching, breadcrumbs, navigation). */
export interface AppRoute extends RouteSpec<RouteName> {
  name: RouteName;
  href(params: Readonly<Record<string, string>>, query?: Record<string, string>): string;
}

// Checks that every entry fits the generic shape; a typo in a parent or fallback fails here.
const asAppRoutes: Record<RouteName, AppRoute> = routes;

export const getRoute = (name: RouteName): AppRoute => asAppRoutes[name];

export const ROUTE_LIST: readonly AppRoute[] = Object.values(asAppRoutes);
