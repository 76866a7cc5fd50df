import { can } from '../../core/permissions';
import { usePrincipal } from '../app/use-principal';
import type { CaseItemChoices } from './assignment-fields';
import type { ProfileCalls, ProfileFormOptions } from './profiles-api';
import { useLoaded } from './use-loaded';

export interface ProfileFormData {
  options: ProfileFormOptions;
  items: CaseItemChoices;
}

/**
 * The choices of the profile form and the import's confirmation: chemistries, sources and
 * laboratories, and the case's items. Items need Cases Read; without it only the profile's current
 * item (`current`) is offered, so saving keeps it.
 */
export function useProfileFormData(calls: ProfileCalls, orgId: string, caseId: string, current?: { id: string | null; name: string | null }) {
  const principal = usePrincipal();
  const readsItems = can(principal, 'Cases', 'Read', { orgId });
  return useLoaded<ProfileFormData>(`${caseId}:${current?.id ?? ''}`, async () => {
    const [options, items] = await Promise.all([calls.formOptions(), readsItems ? calls.items(caseId) : null]);
    const choices: CaseItemChoices = items
      ? { options: items.items.map((i) => ({ value: i.id, label: i.description ? `${i.itemId} (${i.description})` : i.itemId })) }
      : {
          options: current?.id ? [{ value: current.id, label: current.name ?? current.id }] : [],
          hint: 'The case’s items are offered to users who may read cases.',
        };
    return { options, items: choices };
  });
}
