import type { ProfileCalls, ProfileSearchRules } from './profiles-api';
import { useLoaded } from './use-loaded';

const names = (rules: ProfileSearchRules['searching']) => rules.map((r) => r.name).join('; ');

/**
 * What the search policy does with this profile (ARCHITECTURE.md "Search policy"): the rules that search
 * it on approval or on request, the rules under which other profiles find it, or that no rule names its
 * sample type — then it is searched by no rule.
 */
export function ProfileSearchRulesNote({ profileId, sampleType, calls }: { profileId: string; sampleType: string; calls: Pick<ProfileCalls, 'searchRules'> }) {
  const loaded = useLoaded(`${profileId}/${sampleType}`, () => calls.searchRules(profileId));
  if (loaded.status !== 'loaded') return null;
  const { searching, searchedBy } = loaded.value;
  const onApproval = searching.filter((r) => r.trigger === 'approval');
  const onRequest = searching.filter((r) => r.trigger === 'request');
  return (
    <section className="profile-search-rules" aria-label="Search rules">
      {searching.length === 0 && searchedBy.length === 0 ? (
        <p>No search rule names the sample type {sampleType}: this profile is searched by no rule.</p>
      ) : (
        <ul>
          {onApproval.length > 0 ? <li>Searched on approval by: {names(onApproval)}</li> : <li>No rule searches this profile when it is approved.</li>}
          {onRequest.length > 0 ? <li>On request: {names(onRequest)}</li> : null}
          {searchedBy.length > 0 ? <li>Found by the searches of: {names(searchedBy)}</li> : null}
        </ul>
      )}
    </section>
  );
}
