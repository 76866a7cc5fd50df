import type { HitList as HitListName } from '../../core/schemas/hits';
import { routes } from '../app/routes';
import { HitList } from '../hits/hit-list';
import { HitListTabs } from '../hits/hit-list-tabs';

/** The hit lists of a case (spec 2.8): Review is the default. */
export type CaseHitList = 'review' | 'published' | 'rejected' | 'all';

const LIST_OF: Record<CaseHitList, HitListName> = { review: 'pending', published: 'published', rejected: 'rejected', all: 'all' };
const ROUTE_OF: Record<HitListName, 'CaseHits' | 'CaseHitsPublished' | 'CaseHitsRejected' | 'CaseHitsAll'> = {
  pending: 'CaseHits',
  published: 'CaseHitsPublished',
  rejected: 'CaseHitsRejected',
  all: 'CaseHitsAll',
};

/** The Hits tab: Review, Published and Rejected only with Hits Publish, All always (spec 2.8, 6); the hit lists of src/hits. */
export function CaseHitsTab({ orgId, caseId, list }: { orgId: string; caseId: string; list: CaseHitList }) {
  return (
    <>
      <HitListTabs label="Hit lists" orgId={orgId} current={LIST_OF[list]} href={(l) => routes[ROUTE_OF[l]].href({ orgId, caseId })} small />
      <HitList orgId={orgId} owner={{ caseId }} list={LIST_OF[list]} />
    </>
  );
}
