import type { Principal } from '../../../core/permissions';
import { canOpen } from '../route-access';
import { getRoute, type RouteName } from '../routes';

interface NavItemSpec {
  /** The first of these the user may open is where the item leads (Hits → All for non-reviewers). */
  routes: readonly RouteName[];
}

interface NavSectionSpec {
  label: string;
  items: readonly NavItemSpec[];
}

const item = (...routes: RouteName[]): NavItemSpec => ({ routes });

export const NAV_SECTIONS: readonly NavSectionSpec[] = [
  {
    label: 'Casework',
    items: [item('Dashboard'), item('Cases'), item('Profiles'), item('Hits', 'HitsAll'), item('ForeignQueries'), item('CandidateMatches'), item('AnalysisList'), item('KeyboardSearch')],
  },
  {
    label: 'Administration',
    items: [
      item('Users'),
      item('AccessGroups'),
      item('Organizations'),
      item('CaseTypes'),
      item('SampleSources'),
      item('Laboratories'),
      item('Markers'),
      item('YStrChemistries'),
      item('AutosomalChemistries'),
      item('Populations'),
      item('AnalysisGroups'),
      item('SearchRules'),
      item('UploadEligibilityRules'),
      item('EmailTemplates'),
      item('Citations'),
      item('NetworkSettings'),
      item('NetworkDelivery'),
      item('ServiceClients'),
      item('AuditTrail'),
    ],
  },
  { label: 'Information', items: [item('About'), item('Contact')] },
];

export interface NavLink {
  label: string;
  href: string;
  /** The area this link stands for: it is current when the page is this route or below it. */
  area: RouteName;
}

export interface NavSection {
  label: string;
  links: NavLink[];
}

/** The navigation the user may follow in `orgId`, as decided by core/permissions `can()`. */
export function visibleNavigation(principal: Principal, orgId: string): NavSection[] {
  const params = { orgId };
  return NAV_SECTIONS.map((section) => ({
    label: section.label,
    links: section.items.flatMap((spec) => {
      const target = spec.routes.map(getRoute).find((r) => canOpen(principal, r, params));
      if (!target) return [];
      const area = getRoute(spec.routes[0]!);
      return [{ label: typeof area.breadcrumb === 'string' ? area.breadcrumb : area.title, href: target.href(params), area: area.name }];
    }),
  })).filter((section) => section.links.length > 0);
}
