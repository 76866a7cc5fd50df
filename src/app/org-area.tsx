import { Redirect, useLocation, useSearch } from 'wouter';
import { ALL_ORGANIZATIONS, canReachOrganization } from '../../core/permissions';
import { isGuid } from '../../core/guid';
import { breadcrumbTrail } from './breadcrumbs';
import { AppLayout } from './layout/app-layout';
import { BreadcrumbBar } from './layout/breadcrumb-bar';
import { LicencePage } from './licence/licence-page';
import { ForbiddenPage } from './pages/forbidden-page';
import { NoAccessPage } from './pages/no-access-page';
import { NotFoundPage } from './pages/not-found-page';
import { principalOf } from './principal';
import { ReviewCountsProvider } from './review-counts';
import { canOpen } from './route-access';
import { matchRoute, orgIdOf, subPathOf } from './route-match';
import { RouteView } from './route-view';
import { getRoute } from './routes';
import { useShellSession } from './shell-session';
import { useDocumentTitle } from './use-document-title';

/** Where "start page" leads: the user's first organization, else all (as after sign-in, spec 2.1). */
export function homeOrgId(me: { organizations: readonly { id: string }[] }): string {
  return me.organizations[0]?.id ?? ALL_ORGANIZATIONS;
}

/**
 * Everything under /{orgId}: decides, in order, licence → organization → route → permission, and
 * draws the page inside the layout.
 */
export function OrgArea() {
  const [location] = useLocation();
  const search = useSearch();
  const { me, signOut, acceptLicences, lookupName, accountActions } = useShellSession();
  const orgId = orgIdOf(location);
  const subPath = subPathOf(location);
  const principal = principalOf(me);
  const match = matchRoute(location);
  const route = match && !match.route.public ? match.route : null;
  const orgIdValid = orgId === ALL_ORGANIZATIONS || isGuid(orgId);

  const title = !me.licensesAccepted
    ? 'Terms of use'
    : !orgIdValid || !route
      ? 'Not found'
      : !canReachOrganization(principal, orgId)
        ? 'No access'
        : route.title;
  useDocumentTitle(title);

  const layout = { me, orgId, subPath, onSignOut: signOut, accountActions };

  if (!me.licensesAccepted) {
    return (
      <AppLayout {...layout} restricted>
        <LicencePage onAccept={acceptLicences} />
      </AppLayout>
    );
  }
  if (!orgIdValid || !route || !match) {
    return (
      <AppLayout {...layout}>
        <NotFoundPage homeHref={`/${encodeURIComponent(orgIdValid ? orgId : homeOrgId(me))}`} />
      </AppLayout>
    );
  }
  if (!canReachOrganization(principal, orgId)) {
    return (
      <AppLayout {...layout}>
        <NoAccessPage me={me} subPath={subPath} />
      </AppLayout>
    );
  }

  const trail = breadcrumbTrail(match, search);
  const breadcrumbs = <BreadcrumbBar trail={trail} lookupName={lookupName} />;
  let page = <RouteView route={route} params={match.params} />;
  if (!canOpen(principal, route, match.params)) {
    const fallback = route.fallback ? getRoute(route.fallback) : undefined;
    if (fallback && canOpen(principal, fallback, match.params)) return <Redirect to={fallback.href(match.params)} replace />;
    page = <ForbiddenPage title={route.title} />;
  }
  // The navigation's badges and the dashboard share one read of what waits for review.
  return (
    <ReviewCountsProvider orgId={orgId}>
      <AppLayout {...layout} trail={trail.map((c) => c.routeName)} breadcrumbs={breadcrumbs}>
        {page}
      </AppLayout>
    </ReviewCountsProvider>
  );
}
