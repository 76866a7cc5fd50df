import { can } from '../../core/permissions';
import { describeParty } from '../../core/party-roles';
import { usePrincipal } from '../app/use-principal';
import type { CaseItemChoices } from './assignment-fields';
import type { ProfileCalls, ProfileFormOptions } from './profiles-api';
import { useLoaded } from './use-loaded';

export interface ProfileFormData {
  options: ProfileFormOptions;
  items: CaseItemChoices;
  /** The case's involved parties, for Taken from (issue 18). */
  parties: CaseItemChoices;
}

/** What the profile names now, offered alone when the user may not read the case's records. */
interface Current {
  id: string | null;
  name: string | null;
}

const onlyCurrent = (current: Current | undefined, what: string): CaseItemChoices => ({
  options: current?.id ? [{ value: current.id, label: current.name ?? current.id }] : [],
  hint: `The case’s ${what} are offered to users who may read cases.`,
});

/**
 * The choices of the profile form and the import's confirmation: chemistries, sources and
 * laboratories, and the case's items and involved parties. Those need Cases Read; without it only
 * the profile's current item and party (`current`) are offered, so saving keeps them.
 */
export function useProfileFormData(calls: ProfileCalls, orgId: string, caseId: string, current?: { item: Current; party: Current }) {
  const principal = usePrincipal();
  const readsCase = can(principal, 'Cases', 'Read', { orgId });
  return useLoaded<ProfileFormData>(`${caseId}:${current?.item.id ?? ''}:${current?.party.id ?? ''}`, async () => {
    const [options, items, parties] = await Promise.all([calls.formOptions(), readsCase ? calls.items(caseId) : null, readsCase ? calls.parties(caseId) : null]);
    return {
      options,
      items: items ? { options: items.items.map((i) => ({ value: i.id, label: i.description ? `${i.itemId} (${i.description})` : i.itemId })) } : onlyCurrent(current?.item, 'items'),
      parties: parties ? { options: parties.items.map((p) => ({ value: p.id, label: describeParty(p) })) } : onlyCurrent(current?.party, 'involved parties'),
    };
  });
}
