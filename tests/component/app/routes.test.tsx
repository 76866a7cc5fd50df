import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { breadcrumbTrail } from '../../../src/app/breadcrumbs';
import { matchRoute } from '../../../src/app/route-match';
import { requiredVerb } from '../../../src/app/route-access';
import { ROUTE_LIST, routes, type AppRoute } from '../../../src/app/routes';
import { OSLO, RECORD, adminAll, renderShell } from './shell-fixtures';

const ORG_ROUTES = ROUTE_LIST.filter((r) => !r.public);

/** Every parameter filled: orgId with an organization, every record id with a GUID. */
const sampleParams = (route: AppRoute) =>
  Object.fromEntries([...route.pattern.matchAll(/:([A-Za-z]+)/g)].map(([, name]) => [name, name === 'orgId' ? OSLO : RECORD]));

const crumbs = () =>
  within(screen.getByRole('navigation', { name: 'Breadcrumb' }))
    .getAllByRole('listitem')
    .map((li) => li.textContent);

describe('the route table (spec 2)', () => {
  it('holds the spec’s named routes with their exact paths', () => {
    const paths: Record<string, string> = Object.fromEntries(ROUTE_LIST.map((r) => [r.name, r.pattern]));
    expect(paths).toMatchObject({
      Authentication: '/authentication',
      Dashboard: '/:orgId',
      Profiles: '/:orgId/profiles',
      ProfilesReview: '/:orgId/profiles/review',
      ProfilesView: '/:orgId/cases/:caseId/profiles/:sampleid',
      Hits: '/:orgId/hits',
      HitsPublished: '/:orgId/hits/published',
      HitsRejected: '/:orgId/hits/rejected',
      HitsAll: '/:orgId/hits/all',
      HitView: '/:orgId/hits/:id',
      Analyses: '/:orgId/analyses/:analysisGroupId/:analysisId',
      AnalysisEdit: '/:orgId/analysis-groups/:analysisGroupId/analyses/:analysisId',
      FormulaEdit: '/:orgId/analysis-groups/:analysisGroupId/analyses/:analysisId/formulae/:formulaId',
      ConstantEdit: '/:orgId/analysis-groups/:analysisGroupId/analyses/:analysisId/constants/:constantId',
      AnalysisGroupEdit: '/:orgId/analysis-groups/:analysisGroupId',
      About: '/:orgId/about',
      Contact: '/:orgId/contact',
      UsersEdit: '/:orgId/users/:id/edit',
      AccessGroupsEdit: '/:orgId/access-groups/:id/edit',
      OrganizationsEdit: '/:orgId/organizations/:id/edit',
      CaseTypesEdit: '/:orgId/case-types/:id/edit',
      SampleSourcesEdit: '/:orgId/sample-sources/:id/edit',
      YStrChemistriesEdit: '/:orgId/ystr-chemistries/:id/edit',
      AutosomalChemistriesEdit: '/:orgId/autosomal-chemistries/:id/edit',
      MarkersEdit: '/:orgId/markers/:id/edit',
      PopulationsEdit: '/:orgId/populations/:id/edit',
      PopulationsUpload: '/:orgId/populations/:id/upload',
      LaboratoriesEdit: '/:orgId/laboratories/:id/edit',
      CitationsEdit: '/:orgId/citations/:id/edit',
      EmailTemplateForm: '/:orgId/email-templates/:id',
      CaseEdit: '/:orgId/cases/:caseId/edit',
      CaseInvolvedParties: '/:orgId/cases/:caseId',
      CaseProfiles: '/:orgId/cases/:caseId/profiles',
      InvolvedPartyEdit: '/:orgId/cases/:caseId/invloved-parties/:id/edit',
      PhysicalItemEdit: '/:orgId/cases/:caseId/items/:id/edit',
      ProfileMarkersEdit: '/:orgId/cases/:caseId/profiles/:sampleid/edit/markers',
      ProfileUpload: '/:orgId/cases/:caseId/profiles/:sampleid/upload',
    });
  });

  it('uses the spec’s breadcrumb labels', () => {
    const labels: Record<string, unknown> = Object.fromEntries(ROUTE_LIST.map((r) => [r.name, r.breadcrumb]));
    expect(labels).toMatchObject({
      Profiles: 'Profiles',
      ProfilesReview: 'Review',
      Hits: 'Hits',
      HitView: 'View Hit',
      AnalysisGroupAnalyses: 'Analyses',
      Analyses: 'Analysis',
      KeyboardSearch: 'Keyboard search',
      About: 'About us',
      Contact: 'Contact',
      Users: 'Users',
      AccessGroups: 'Roles',
      PopulationsUpload: 'Upload Statistics',
    });
  });

  it('carries the permissions the spec states', () => {
    const p = (r: AppRoute, id = RECORD) => [r.permission?.entity, requiredVerb(r, { ...sampleParams(r), id, caseId: id, sampleid: id })];
    expect(p(routes.Hits)).toEqual(['Hits', 'Publish']);
    expect(p(routes.HitsPublished)).toEqual(['Hits', 'Publish']);
    expect(p(routes.HitsAll)).toEqual([undefined, undefined]);
    expect(p(routes.Profiles)).toEqual(['Profiles', 'Read']);
    expect(p(routes.ProfileEdit)).toEqual(['Profiles', 'Edit']);
    expect(p(routes.ProfileEdit, 'new')).toEqual(['Profiles', 'Add']);
    expect(p(routes.InvolvedPartyEdit, 'new')).toEqual(['Cases', 'Edit']);
    expect(p(routes.CaseEdit)).toEqual(['Cases', 'Edit']);
    expect(p(routes.CaseEdit, 'new')).toEqual(['Cases', 'Add']);
    expect(p(routes.CaseAudit)).toEqual(['Cases', 'ViewAudit']);
    expect(p(routes.CaseSettings)).toEqual(['Cases', 'ChangeSettings']);
    expect(p(routes.ProfileMarkers)).toEqual(['Markers', 'Read']);
    expect(p(routes.ProfileHits)).toEqual(['Hits', 'Read']);
  });

  it.each(ORG_ROUTES.map((r) => [r.name, r] as const))('%s: its href leads back to it', (_, route) => {
    const params = sampleParams(route);
    const match = matchRoute(route.href(params));
    expect(match?.route.name).toBe(route.name);
    expect(match?.params).toEqual(params);
  });

  it('builds hrefs with encoded values and a query', () => {
    expect(routes.Authentication.href({}, { redirect: '/a/b?c=1' })).toBe('/authentication?redirect=%2Fa%2Fb%3Fc%3D1');
    expect(routes.HitView.href({ orgId: 'all', id: 'a/b' })).toBe('/all/hits/a%2Fb');
  });
});

describe('every route renders in the layout with its breadcrumb', () => {
  it.each(ORG_ROUTES.map((r) => [r.name, r] as const))('%s', async (_, route) => {
    renderShell(route.href(sampleParams(route)), { me: adminAll });
    // Each page's code loads on first use (lazyPage).
    expect(await screen.findByRole('heading', { level: 1, name: route.title })).toBeInTheDocument();
    const expected = typeof route.breadcrumb === 'string' ? route.breadcrumb : RECORD;
    expect(crumbs().at(-1)).toBe(expected);
    expect(crumbs()[0]).toBe('Dashboard');
  });
});

describe('breadcrumb trails', () => {
  it('walks up to the dashboard, each crumb linking to its page', () => {
    renderShell(routes.ProfileMarkersEdit.href({ orgId: OSLO, caseId: RECORD, sampleid: RECORD }), { me: adminAll });
    expect(crumbs()).toEqual(['Dashboard', 'Cases', RECORD, 'Profiles', RECORD, 'Edit', 'Markers']);
    const nav = within(screen.getByRole('navigation', { name: 'Breadcrumb' }));
    expect(nav.getByRole('link', { name: 'Profiles' })).toHaveAttribute('href', `/${OSLO}/cases/${RECORD}/profiles`);
    expect(nav.getByText('Markers').closest('li')).toHaveAttribute('aria-current', 'page');
  });

  it('shows New for an id that is not a GUID', () => {
    renderShell(routes.AnalysisEdit.href({ orgId: OSLO, analysisGroupId: RECORD, analysisId: 'new' }), { me: adminAll });
    expect(crumbs()).toEqual(['Dashboard', 'Analysis groups', RECORD, 'New']);
  });

  it('shows looked-up names, and n/a when a lookup fails', async () => {
    const lookupName = vi.fn(({ routeName }: { routeName: string }) =>
      routeName === 'AnalysisGroupEdit' ? Promise.resolve('Paternity') : Promise.reject(new Error('404')),
    );
    renderShell(routes.AnalysisEdit.href({ orgId: OSLO, analysisGroupId: RECORD, analysisId: RECORD }), { me: adminAll, lookupName });
    // A neutral placeholder until the names arrive, never the raw id (issue 30).
    expect(crumbs()).toEqual(['Dashboard', 'Analysis groups', '…', '…']);
    await waitFor(() => expect(crumbs()).toEqual(['Dashboard', 'Analysis groups', 'Paternity', 'n/a']));
    expect(lookupName).toHaveBeenCalledWith({ routeName: 'AnalysisGroupEdit', id: RECORD, params: expect.objectContaining({ analysisGroupId: RECORD }) });
  });

  it('keeps the id when the lookup has nothing for that route', () => {
    renderShell(routes.UsersEdit.href({ orgId: OSLO, id: RECORD }), { me: adminAll, lookupName: () => undefined });
    expect(crumbs()).toEqual(['Dashboard', 'Users', RECORD]);
  });

  it('the calculator opened from a case leads back to that case’s involved parties (spec 2.5)', () => {
    const CASE = '44444444-4444-4444-8444-444444444444';
    const path = routes.Analyses.href({ orgId: OSLO, analysisGroupId: RECORD, analysisId: RECORD }, { caseId: CASE });
    renderShell(path, { me: adminAll });
    expect(crumbs()).toEqual(['Dashboard', 'Cases', CASE, 'Analysis']);
    expect(screen.getByRole('link', { name: CASE })).toHaveAttribute('href', `/${OSLO}/cases/${CASE}`);
  });

  it('the calculator with caseId new keeps its analysis-group trail', () => {
    const match = matchRoute(routes.Analyses.href({ orgId: OSLO, analysisGroupId: RECORD, analysisId: RECORD }))!;
    expect(breadcrumbTrail(match, '?caseId=new').map((c) => c.routeName)).toEqual(['Dashboard', 'AnalysisGroupAnalyses', 'Analyses']);
  });
});
