import { can } from '../../core/permissions';
import { routes } from '../app/routes';
import { usePrincipal } from '../app/use-principal';
import { LinkTabs } from '../ui/link-tabs';

/** The hit lists of a case (spec 2.8): Review is the default. */
export type CaseHitList = 'review' | 'published' | 'rejected' | 'all';

const HEADINGS: Record<CaseHitList, string> = { review: 'Hits to review', published: 'Published hits', rejected: 'Rejected hits', all: 'All hits' };

/**
 * The Hits tab: Review, Published and Rejected only with Hits Publish, All always (spec 2.8, 6).
 * The lists themselves come with matching (issue 6); until then each says where hits will appear.
 */
export function CaseHitsTab({ orgId, caseId, list }: { orgId: string; caseId: string; list: CaseHitList }) {
  const publishes = can(usePrincipal(), 'Hits', 'Publish');
  const params = { orgId, caseId };
  const tabs = [
    ...(publishes
      ? [
          { label: 'Review', href: routes.CaseHits.href(params), current: list === 'review' },
          { label: 'Published', href: routes.CaseHitsPublished.href(params), current: list === 'published' },
          { label: 'Rejected', href: routes.CaseHitsRejected.href(params), current: list === 'rejected' },
        ]
      : []),
    { label: 'All', href: routes.CaseHitsAll.href(params), current: list === 'all' },
  ];
  return (
    <>
      <LinkTabs label="Hit lists" tabs={tabs} small />
      <h2>{HEADINGS[list]}</h2>
      <p className="case-tab__empty">No hits yet. Hits appear here once matching finds them.</p>
    </>
  );
}
