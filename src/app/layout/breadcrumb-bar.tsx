import { AsyncLabel, LOOKUP_PENDING_TEXT } from '../../ui/async-label';
import { Breadcrumbs, type BreadcrumbItem } from '../../ui/breadcrumbs';
import type { Crumb } from '../breadcrumbs';
import type { RouteName } from '../routes';

/** Spec 5: a record id that is not a GUID is a new record. */
export const NEW_RECORD_LABEL = 'New';

/**
 * Finds the display name of a record named in the trail (a group, an analysis, a template's
 * subject…). Return undefined when the route has no lookup: the id itself is shown.
 */
export type BreadcrumbNameLookup = (record: {
  routeName: RouteName;
  id: string;
  params: Readonly<Record<string, string>>;
}) => Promise<string> | undefined;

export function BreadcrumbBar({ trail, lookupName }: { trail: readonly Crumb[]; lookupName?: BreadcrumbNameLookup | undefined }) {
  const items: BreadcrumbItem[] = trail.map((crumb) => {
    if (crumb.kind === 'text') return { key: crumb.key, href: crumb.href, label: crumb.text };
    if (crumb.kind === 'new') return { key: crumb.key, href: crumb.href, label: NEW_RECORD_LABEL };
    const load = lookupName ? () => lookupName({ routeName: crumb.routeName, id: crumb.id, params: crumb.params }) : undefined;
    const label = load ? <AsyncLabel placeholder={crumb.id} pendingText={LOOKUP_PENDING_TEXT} load={load} lookupKey={`${crumb.routeName}:${crumb.id}`} /> : crumb.id;
    return { key: crumb.key, href: crumb.href, label };
  });
  return <Breadcrumbs items={items} />;
}
