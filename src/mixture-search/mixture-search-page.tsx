import { useId, useMemo, useState } from 'react';
import { can } from '../../core/permissions';
import { fromPromise } from 'xstate';
import type { Population } from '../../core/schemas/populations';
import type { ProfileWithMarkers } from '../../core/schemas/profiles';
import type { MixtureSearchBody } from '../../core/schemas/mixtures';
import { fieldLabel, formErrors, mixtureSearchMachine, type MixtureSearchInput } from '../../machines/mixtureSearch.machine';
import { useApi } from '../app/api-provider';
import { routes } from '../app/routes';
import { usePrincipal } from '../app/use-principal';
import { LoadState } from '../profiles/load-state';
import { useLoaded } from '../profiles/use-loaded';
import { MixtureResults } from './mixture-results';
import { MixtureSearchActor, useBusy } from './mixture-search-actor';
import { mixtureSearchApi, type MixtureSearchCalls, type MixtureSearchOptions, type TypedMixtureSearchOptions } from './mixture-search-api';
import { EvidenceFields } from './profile-slots';
import { SearchFailure } from './search-failure';
import { SearchModelChoice } from './search-model';
import { SearchParameters } from './search-parameters';
import { SearchScope } from './search-scope';
import '../analyses/calculator.css';
import './mixture-search.css';

/** What keeps Run from sending, one line per field (each field also says it), once Run was pressed. */
function Blockers() {
  const lines = MixtureSearchActor.useSelector((s) => (s.context.showBlockers ? Object.entries(formErrors(s.context)).map(([key, message]) => `${fieldLabel(key, s.context)}: ${message}`) : []).join('\n'));
  if (!lines) return null;
  return (
    <div className="notice notice--negative" role="alert">
      <p>Correct the search first:</p>
      <ul>
        {lines.split('\n').map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    </div>
  );
}

/** Search, or Cancel while it runs. */
function RunControls() {
  const actor = MixtureSearchActor.useActorRef();
  const busy = useBusy();
  return (
    <div className="form__actions">
      <button type="submit" className="button button--primary" disabled={busy}>
        {busy ? 'Searching…' : 'Search'}
      </button>
      {busy ? (
        <button type="button" className="button button--secondary" onClick={() => actor.send({ type: 'search.cancel' })}>
          Cancel
        </button>
      ) : null}
    </div>
  );
}

/** The form and below it the failure or the ranked list; under a MixtureSearchActor provider. */
export function MixtureSearchScreen({ orgId, populations, calls }: { orgId: string; populations: readonly Population[]; calls: Pick<MixtureSearchCalls, 'calculator'> }) {
  const actor = MixtureSearchActor.useActorRef();
  return (
    <>
      <p className="field__hint">
        Ranks the organization’s approved references of the searched sample types by their likelihood ratio as a contributor to the evidence (semi-continuous or
        continuous model), the smallest over the populations first. Nothing is stored but an entry in the audit trail, without alleles.
      </p>
      <form
        className="form mixture-search"
        aria-label="Mixture search"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          actor.send({ type: 'search.run' });
        }}
      >
        <EvidenceFields orgId={orgId} calls={calls.calculator} />
        <div className="mixture-search__settings">
          <SearchModelChoice />
          <SearchParameters />
          <SearchScope populations={populations} />
        </div>
        <Blockers />
        <RunControls />
      </form>
      <SearchFailure />
      <MixtureResults orgId={orgId} />
    </>
  );
}

/** Whether any replicate of the profile keeps a peak height (the continuous model weighs them). */
const hasPeakHeights = (profile: ProfileWithMarkers): boolean => (profile.replicates ?? []).some((r) => r.markers.some((m) => m.peaks.some((p) => p.height !== null)));

/** The machine's input for the loaded options: the evidence's sample name, case and markers. */
export const searchInput = (orgId: string, options: MixtureSearchOptions): MixtureSearchInput => ({
  organizationId: orgId,
  evidence: { id: options.evidence.id, sampleName: options.evidence.profileId, caseNumber: options.evidence.caseNumber, markers: options.evidence.markerValues.map((m) => m.marker), hasHeights: hasPeakHeights(options.evidence) },
  analyses: options.analyses,
});

/** The mixture search for loaded options, its machine searching with `calls`. */
export function MixtureSearch({ orgId, options, calls }: { orgId: string; options: MixtureSearchOptions; calls: Pick<MixtureSearchCalls, 'calculator' | 'search'> }) {
  const logic = useMemo(() => mixtureSearchMachine.provide({ actors: { search: fromPromise(({ input, signal }: { input: MixtureSearchBody; signal: AbortSignal }) => calls.search(input, signal)) } }), [calls]);
  if (options.evidence.kind !== 'Autosomal') {
    return (
      <p className="notice notice--negative" role="alert">
        {options.evidence.profileId} is a Y-STR profile; a mixture search weighs autosomal profiles.
      </p>
    );
  }
  return (
    <MixtureSearchActor.Provider logic={logic} options={{ input: searchInput(orgId, options) }}>
      <MixtureSearchScreen orgId={orgId} populations={options.populations} calls={calls} />
    </MixtureSearchActor.Provider>
  );
}

/**
 * The ProfileMixtureSearch route (issue 17): the mixture search opened from a forensic profile, which is its first
 * replicate. Reads the profile, the active mixture analyses and the populations, then the form.
 */
export function MixtureSearchPage({ orgId, sampleid }: { orgId: string; sampleid: string }) {
  const api = useApi();
  const calls = useMemo(() => mixtureSearchApi(api), [api]);
  const loaded = useLoaded(`${orgId}/${sampleid}`, () => calls.options(orgId, sampleid));
  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title">{routes.ProfileMixtureSearch.title}</h1>
      <LoadState loaded={loaded} missing="This profile no longer exists.">
        {(options) => <MixtureSearch orgId={orgId} options={options} calls={calls} />}
      </LoadState>
    </section>
  );
}

/** The mixture search of a typed mixture for loaded options: a chemistry's markers to type the first replicate in (another chemistry starts the form again). */
export function TypedMixtureSearch({ orgId, options, calls }: { orgId: string; options: TypedMixtureSearchOptions; calls: Pick<MixtureSearchCalls, 'calculator' | 'search'> }) {
  const logic = useMemo(() => mixtureSearchMachine.provide({ actors: { search: fromPromise(({ input, signal }: { input: MixtureSearchBody; signal: AbortSignal }) => calls.search(input, signal)) } }), [calls]);
  const [chemistryId, setChemistryId] = useState(options.chemistries[0]?.id ?? '');
  const chemistry = options.chemistries.find((c) => c.id === chemistryId);
  const id = useId();
  if (!chemistry) return <p className="notice">No autosomal chemistry is defined yet. An administrator adds one under the chemistries.</p>;
  const input: MixtureSearchInput = { organizationId: orgId, markers: chemistry.markers.map((m) => m.name), analyses: options.analyses };
  return (
    <>
      <div className="field">
        <label className="field__label" htmlFor={id}>
          Chemistry
        </label>
        <select id={id} className="input" value={chemistryId} onChange={(e) => setChemistryId(e.target.value)}>
          {options.chemistries.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
        <p className="field__hint">The markers the typed profiles fill in; choosing another chemistry starts the form again.</p>
      </div>
      <MixtureSearchActor.Provider key={chemistry.id} logic={logic} options={{ input }}>
        <MixtureSearchScreen orgId={orgId} populations={options.populations} calls={calls} />
      </MixtureSearchActor.Provider>
    </>
  );
}

/**
 * The MixtureSearch route (issue 17), linked from the keyboard search: the mixture search of a typed mixture, its
 * first replicate typed per marker of a chemistry. Reads the chemistries (as the keyboard search does), the active
 * mixture analyses and the populations, then the form.
 */
export function TypedMixtureSearchPage({ orgId }: { orgId: string }) {
  const api = useApi();
  const principal = usePrincipal();
  const calls = useMemo(() => mixtureSearchApi(api), [api]);
  const profileForms = can(principal, 'Profiles', 'Add') || can(principal, 'Profiles', 'Edit');
  const loaded = useLoaded(`${orgId}/typed/${profileForms}`, () => calls.typedOptions(orgId, profileForms));
  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title">{routes.MixtureSearch.title}</h1>
      <LoadState loaded={loaded} missing="The chemistries could not be found.">
        {(options) => <TypedMixtureSearch orgId={orgId} options={options} calls={calls} />}
      </LoadState>
    </section>
  );
}
