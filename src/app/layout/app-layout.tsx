import { useEffect, useState, type ReactNode } from 'react';
import type { Me } from '../../../core/schemas/me';
import { principalOf } from '../principal';
import { useReviewCounts } from '../review-counts';
import type { RouteName } from '../routes';
import { AppHeader } from './app-header';
import { visibleNavigation } from './nav-items';
import { reviewBadges } from './review-count-badge';
import { SideNav } from './side-nav';

const NAV_ID = 'app-navigation';

export interface AppLayoutProps {
  me: Me;
  orgId: string;
  /** The path after /{orgId}; the organization switcher keeps it. */
  subPath: string;
  /** Route names of the current page's trail, root first; marks the current navigation item. */
  trail?: readonly RouteName[];
  breadcrumbs?: ReactNode;
  /** Until the licence is accepted only the header's sign-out and the page itself are offered. */
  restricted?: boolean;
  onSignOut(): void;
  /** Account actions beside Sign out (Change password); the session bridge supplies them. */
  accountActions?: ReactNode;
  children: ReactNode;
}

/**
 * The frame of every signed-in page: header, permitted navigation, breadcrumbs and the page. It
 * takes everything by props, so stories and tests can draw it without a session.
 */
export function AppLayout({ me, orgId, subPath, trail = [], breadcrumbs, restricted = false, onSignOut, accountActions, children }: AppLayoutProps) {
  const [navOpen, setNavOpen] = useState(false);
  // On narrow screens the navigation is a drawer; following a link closes it.
  useEffect(() => setNavOpen(false), [orgId, subPath]);
  const sections = restricted ? [] : visibleNavigation(principalOf(me), orgId);
  // What waits for review, when the page's organization reads its counts (OrgArea's ReviewCountsProvider).
  const badges = reviewBadges(useReviewCounts());
  return (
    <div className="app-shell" data-nav-open={navOpen ? 'true' : 'false'}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <AppHeader
        me={me}
        orgId={orgId}
        subPath={subPath}
        restricted={restricted}
        onSignOut={onSignOut}
        accountActions={accountActions}
        navOpen={navOpen}
        onToggleNav={() => setNavOpen((open) => !open)}
        navId={NAV_ID}
      />
      <div className="app-body">
        {restricted ? null : <SideNav id={NAV_ID} sections={sections} trail={trail} badges={badges} />}
        <main id="main" tabIndex={-1} className="app-main">
          {restricted ? null : breadcrumbs}
          <div className="app-page">{children}</div>
        </main>
      </div>
    </div>
  );
}
