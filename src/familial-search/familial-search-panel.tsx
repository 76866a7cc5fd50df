import { useMemo } from 'react';
import { fromPromise } from 'xstate';
import type { ProfileWithMarkers } from '../../core/schemas/profiles';
import { familialSearchMachine, type FamilialPromoteInput, type FamilialSearchInput } from '../../machines/familialSearch.machine';
import { useApi } from '../app/api-provider';
import { useLoaded } from '../profiles/use-loaded';
import { FamilialFailure } from './familial-failure';
import { FamilialResults } from './familial-results';
import { FamilialSearchActor } from './familial-search-actor';
import { familialSearchApi, type FamilialSearchCalls } from './familial-search-api';
import { FamilialSearchForm } from './familial-search-form';
import { PromotedHits } from './promoted-hits';
import './familial-search.css';

/** Below the form: the failure, then the candidate list or, after a promotion, the hits created. */
function FamilialOutcome({ orgId }: { orgId: string }) {
  const promoted = FamilialSearchActor.useSelector((s) => s.matches('promoted'));
  return (
    <>
      <FamilialFailure />
      {promoted ? <PromotedHits orgId={orgId} /> : <FamilialResults orgId={orgId} />}
    </>
  );
}

/** The machine with the panel's calls. */
function useFamilialLogic(calls: FamilialSearchCalls) {
  return useMemo(
    () =>
      familialSearchMachine.provide({
        actors: {
          search: fromPromise(({ input }: { input: FamilialSearchInput }) => calls.search(input)),
          promote: fromPromise(({ input }: { input: FamilialPromoteInput }) => calls.promote(input)),
        },
      }),
    [calls],
  );
}

/**
 * Familial search on request (issue 12) on the profile view, for users with Hits Publish and an
 * approved profile: shown only when some on-request rule searches with the profile's sample type.
 * The server decides which rules and populations are offered; machines/familialSearch drives the rest.
 */
export function FamilialSearchPanel({ orgId, profile }: { orgId: string; profile: Pick<ProfileWithMarkers, 'id' | 'profileId'> }) {
  const api = useApi();
  const calls = useMemo(() => familialSearchApi(api), [api]);
  const logic = useFamilialLogic(calls);
  const loaded = useLoaded(profile.id, () => calls.options(profile.id));
  if (loaded.status === 'loading' || (loaded.status === 'loaded' && loaded.value.rules.length === 0)) return null;
  return (
    <section className="familial-search" aria-labelledby="familial-search-title">
      <h2 id="familial-search-title">Familial search</h2>
      {loaded.status === 'failed' ? (
        <div className="notice notice--negative" role="alert">
          <p>The familial search options could not be read: {loaded.error.message}</p>
          <button type="button" className="button button--secondary" onClick={loaded.reload}>
            Try again
          </button>
        </div>
      ) : (
        <FamilialSearchActor.Provider logic={logic} options={{ input: { profileId: profile.id } }}>
          <p className="field__hint">
            Looks for relatives of {profile.profileId} among the organization’s approved profiles that an on-request rule searches, and lists the strongest candidates; nothing is
            stored until you promote candidates to pending hits. The search is recorded in the audit trail.
          </p>
          <FamilialSearchForm options={loaded.value} />
          <FamilialOutcome orgId={orgId} />
        </FamilialSearchActor.Provider>
      )}
    </section>
  );
}
