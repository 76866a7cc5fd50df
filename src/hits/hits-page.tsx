import { useState } from 'react';
import { can } from '../../core/permissions';
import type { HitList as HitListName } from '../../core/schemas/hits';
import { LiveStatusNote } from '../app/live-status-note';
import { routes } from '../app/routes';
import { useOrganizationEvents } from '../app/use-organization-events';
import { usePrincipal } from '../app/use-principal';
import { HitBulkReview } from './hit-bulk-review';
import { HitList } from './hit-list';
import { HitListTabs } from './hit-list-tabs';
import { SearchProgress } from './search-progress';

const ROUTE_OF: Record<HitListName, 'Hits' | 'HitsPublished' | 'HitsRejected' | 'HitsAll'> = { pending: 'Hits', published: 'HitsPublished', rejected: 'HitsRejected', all: 'HitsAll' };

/**
 * The Hits tab page (spec 2.4): Review (pending, the default), Published and Rejected for users
 * with Hits Publish, All for everyone; at `all` the lists span every organization the user reaches.
 */
export function HitsPage({ orgId, list }: { orgId: string; list: HitListName }) {
  // A finished database search may have recorded hits: the list is read again (when the event stream is down; else it hears of them).
  const [generation, setGeneration] = useState(0);
  // Follows the organization only to say when its lists may be behind; the lists below follow it themselves.
  const liveStatus = useOrganizationEvents(can(usePrincipal(), 'Hits', 'Read', { orgId }) ? orgId : null, [], () => undefined);
  return (
    <section className="page" aria-labelledby="page-title">
      <div className="page__header">
        <h1 id="page-title">{routes[ROUTE_OF[list]].title}</h1>
      </div>
      <HitListTabs label="Hit lists" orgId={orgId} current={list} href={(l) => routes[ROUTE_OF[l]].href({ orgId })} />
      <LiveStatusNote status={liveStatus} />
      <SearchProgress orgId={orgId} onFinished={() => setGeneration((g) => g + 1)} />
      {/* On Review, hits can be selected and published or rejected together (issue 18); the list is read again after. */}
      <HitBulkReview key={list} orgId={orgId} enabled={list === 'pending'} onDecided={() => setGeneration((g) => g + 1)}>
        {(selectColumn) => <HitList orgId={orgId} owner={{ orgId }} list={list} reloadKey={generation} selectColumn={selectColumn} />}
      </HitBulkReview>
    </section>
  );
}
