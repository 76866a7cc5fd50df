import { can } from '../../core/permissions';
import { HIT_LISTS, type HitList } from '../../core/schemas/hits';
import { usePrincipal } from '../app/use-principal';
import { LinkTabs } from '../ui/link-tabs';

/**
 * The tabs over a hit list (spec 2.4, 2.8, 6): Review, Published and Rejected only with Hits
 * Publish, All always. `href` gives each list's route.
 */
export function HitListTabs({ label, orgId, current, href, small = false }: { label: string; orgId: string; current: HitList; href(list: HitList): string; small?: boolean }) {
  const publishes = can(usePrincipal(), 'Hits', 'Publish', { orgId });
  const lists: HitList[] = publishes ? ['pending', 'published', 'rejected', 'all'] : ['all'];
  return <LinkTabs label={label} small={small} tabs={lists.map((list) => ({ label: HIT_LISTS[list].label, href: href(list), current: list === current }))} />;
}
