import { useMachine } from '@xstate/react';
import { useEffect, useId, useMemo, useState } from 'react';
import { Link } from 'wouter';
import { fromPromise } from 'xstate';
import { ALL_ORGANIZATIONS, can } from '../../core/permissions';
import { STRINGENCIES, type KeyboardSearchAnalysis, type KeyboardSearchBody } from '../../core/schemas/keyboard-search';
import type { Population } from '../../core/schemas/populations';
import { keyboardSearchMachine, type KeyboardSearchRequest } from '../../machines/keyboardSearch.machine';
import { PopulationPicker } from '../analyses/population-picker';
import { useApi } from '../app/api-provider';
import { routes } from '../app/routes';
import { useShellSession } from '../app/shell-session';
import { usePrincipal } from '../app/use-principal';
import { parseAlleleText } from '../profiles/allele-text';
import { LoadState } from '../profiles/load-state';
import { useLoaded } from '../profiles/use-loaded';
import { AnalysisPicker } from './analysis-picker';
import { keyboardSearchApi, type KeyboardSearchCalls, type SearchChemistry } from './keyboard-search-api';
import { MarkerGrid, markerErrors, type MarkerTexts } from './marker-grid';
import { parsePastedProfile } from './paste-profile';
import { SearchFailure } from './search-failure';
import { SearchResults } from './search-results';
import '../profiles/profiles.css';
import './keyboard-search.css';

const STRINGENCY_HINT: Record<KeyboardSearchBody['stringency'], string> = {
  high: 'High: identical alleles at every compared marker',
  moderate: 'Moderate: one allele set contained in the other (mixtures, drop-out)',
  low: 'Low: at least one shared allele',
};

/** The organization a search is made in: the route's, or at `all` the one chosen (its audit trail records the search). */
function useSearchOrganization(orgId: string) {
  const { me } = useShellSession();
  const own = useMemo(() => [...me.organizations].sort((a, b) => a.name.localeCompare(b.name)), [me]);
  const [chosen, setChosen] = useState(own[0]?.id ?? '');
  return { all: orgId === ALL_ORGANIZATIONS, organizations: own, searchOrgId: orgId === ALL_ORGANIZATIONS ? chosen : orgId, choose: setChosen };
}

/** The populations of `kind` shared with the organization, read again when either changes; null while reading. */
function usePopulations(calls: KeyboardSearchCalls, orgId: string, kind: SearchChemistry['kind'] | undefined) {
  const [populations, setPopulations] = useState<Population[] | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (!orgId || !kind) return;
    let current = true;
    setPopulations(null);
    setFailed(false);
    calls.populations(orgId, kind).then(
      (list) => current && setPopulations(list.items),
      () => current && setFailed(true),
    );
    return () => {
      current = false;
    };
  }, [calls, orgId, kind]);
  return { populations: failed ? [] : populations, failed };
}

/** The analyses a search of `kind` can run, those run by default chosen again whenever the kind changes; null while reading. */
function useAnalyses(calls: KeyboardSearchCalls, kind: SearchChemistry['kind'] | undefined) {
  const [analyses, setAnalyses] = useState<KeyboardSearchAnalysis[] | null>(null);
  const [chosen, setChosen] = useState<string[]>([]);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (!kind) return;
    let current = true;
    setAnalyses(null);
    setFailed(false);
    calls.analyses(kind).then(
      (list) => {
        if (!current) return;
        setAnalyses(list);
        setChosen(list.filter((a) => a.byDefault).map((a) => a.id));
      },
      () => current && setFailed(true),
    );
    return () => {
      current = false;
    };
  }, [calls, kind]);
  const toggle = (id: string) => setChosen((ids) => (ids.includes(id) ? ids.filter((a) => a !== id) : [...ids, id]));
  return { analyses: failed ? [] : analyses, failed, chosen, toggle };
}

/**
 * The keyboard search form and its answer (spec 2.6; issue 6), driven by machines/keyboardSearch:
 * a chemistry's marker grid typed or pasted into, the populations to compute over, the analyses to run, the
 * stringency limits; the server stores nothing of the typed profile, only that a search was made.
 */
function KeyboardSearchForm({ orgId, chemistries, calls }: { orgId: string; chemistries: SearchChemistry[]; calls: KeyboardSearchCalls }) {
  const logic = useMemo(() => keyboardSearchMachine.provide({ actors: { search: fromPromise(({ input }: { input: KeyboardSearchRequest }) => calls.search(input)) } }), [calls]);
  const [snapshot, send] = useMachine(logic);
  const organization = useSearchOrganization(orgId);
  const [chemistryId, setChemistryId] = useState(chemistries[0]?.id ?? '');
  const chemistry = chemistries.find((c) => c.id === chemistryId);
  const { populations, failed: populationsFailed } = usePopulations(calls, organization.searchOrgId, chemistry?.kind);
  const [populationIds, setPopulationIds] = useState<string[]>([]);
  const analyses = useAnalyses(calls, chemistry?.kind);
  const [texts, setTexts] = useState<MarkerTexts>({});
  const [checked, setChecked] = useState<ReadonlySet<string>>(new Set());
  const [pasteText, setPasteText] = useState('');
  const [pasteProblems, setPasteProblems] = useState<string[]>([]);
  const [stringency, setStringency] = useState<KeyboardSearchBody['stringency']>('moderate');
  const [minMarkers, setMinMarkers] = useState('8');
  const [maxMismatches, setMaxMismatches] = useState('0');
  const [problem, setProblem] = useState<string | null>(null);
  const busy = snapshot.hasTag('busy');
  const ids = { org: useId(), chemistry: useId(), paste: useId(), stringency: useId(), min: useId(), mismatches: useId() };

  // Populations of another kind (or another organization's) cannot be sent with this chemistry.
  useEffect(() => setPopulationIds((chosen) => chosen.filter((id) => populations?.some((p) => p.id === id))), [populations]);

  const fill = (text: string) => {
    if (!chemistry) return;
    const pasted = parsePastedProfile(text, chemistry.markers);
    setTexts((t) => ({ ...t, ...pasted.texts }));
    setChecked((c) => new Set([...c, ...Object.keys(pasted.texts)]));
    setPasteProblems(pasted.problems);
  };

  const search = () => {
    if (!chemistry) return;
    setChecked(new Set(chemistry.markers.map((m) => m.id)));
    const markerValues = chemistry.markers.map((m) => ({ markerId: m.id, alleles: parseAlleleText(texts[m.id] ?? '') })).filter((m) => m.alleles.length > 0);
    const invalid = chemistry.markers.find((m) => markerErrors(m, texts[m.id] ?? '').length > 0);
    const min = Number(minMarkers);
    const mismatches = Number(maxMismatches);
    const refusal = !organization.searchOrgId
      ? 'Choose the organization to search in.'
      : invalid
        ? `Correct ${invalid.name} first.`
        : markerValues.length === 0
          ? 'Type at least one marker.'
          : !Number.isInteger(min) || min < 1
            ? 'The minimum of compared markers is a whole number of at least 1.'
            : !Number.isInteger(mismatches) || mismatches < 0 || mismatches > 10
              ? 'The allowed mismatches are a whole number from 0 to 10.'
              : null;
    setProblem(refusal);
    if (invalid) document.getElementById(`search-marker-${invalid.id}`)?.focus();
    if (refusal) return;
    // Until the analyses are read, the server's default (the same-source ones) is what the form would tick.
    const analysisIds = analyses.analyses === null ? {} : { analysisIds: analyses.chosen };
    send({ type: 'search', request: { organizationId: organization.searchOrgId, chemistryId: chemistry.id, markerValues, populationIds, stringency, minMarkers: min, maxMismatches: mismatches, ...analysisIds } });
  };

  return (
    <>
      <form
        className="form keyboard-search"
        aria-label="Typed-in profile"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          search();
        }}
      >
        <p className="field__hint">
          Type the profile’s alleles per marker (15, 16), or paste it: one marker per line as <code>Marker,Allele1,Allele2</code> or{' '}
          <code>D3S1358 15,16</code>. The profile is compared with every approved profile you may see; nothing about it is stored.
        </p>
        <div className="keyboard-search__settings">
          {organization.all ? (
            <div className="field">
              <label className="field__label" htmlFor={ids.org}>
                Search in organization
              </label>
              <select id={ids.org} className="input" value={organization.searchOrgId} disabled={busy} onChange={(e) => organization.choose(e.target.value)}>
                {organization.organizations.length === 0 ? <option value="">You belong to no organization</option> : null}
                {organization.organizations.map((o) => (
                  <option key={o.id} value={o.id}>
                    {o.name}
                  </option>
                ))}
              </select>
              <p className="field__hint">Its populations are offered and its audit trail records the search.</p>
            </div>
          ) : null}
          <div className="field">
            <label className="field__label" htmlFor={ids.chemistry}>
              Chemistry
            </label>
            <select id={ids.chemistry} className="input" value={chemistryId} disabled={busy} onChange={(e) => setChemistryId(e.target.value)}>
              {chemistries.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label className="field__label" htmlFor={ids.stringency}>
              Stringency
            </label>
            <select id={ids.stringency} className="input" value={stringency} disabled={busy} onChange={(e) => setStringency(e.target.value as KeyboardSearchBody['stringency'])}>
              {STRINGENCIES.map((s) => (
                <option key={s} value={s}>
                  {STRINGENCY_HINT[s]}
                </option>
              ))}
            </select>
          </div>
          <div className="field">
            <label className="field__label" htmlFor={ids.min}>
              Minimum compared markers
            </label>
            <input id={ids.min} className="input" type="number" min={1} max={100} value={minMarkers} disabled={busy} onChange={(e) => setMinMarkers(e.target.value)} />
          </div>
          <div className="field">
            <label className="field__label" htmlFor={ids.mismatches}>
              Allowed mismatches
            </label>
            <input id={ids.mismatches} className="input" type="number" min={0} max={10} value={maxMismatches} disabled={busy} onChange={(e) => setMaxMismatches(e.target.value)} />
          </div>
        </div>
        {chemistry ? (
          <PopulationPicker
            populations={populations}
            chosen={populationIds}
            disabled={busy}
            onToggle={(id) => setPopulationIds((chosen) => (chosen.includes(id) ? chosen.filter((p) => p !== id) : [...chosen, id]))}
          />
        ) : null}
        {chemistry ? <AnalysisPicker analyses={analyses.analyses} chosen={analyses.chosen} disabled={busy} onToggle={analyses.toggle} /> : null}
        {analyses.failed ? (
          <p className="notice notice--negative" role="alert">
            The analyses could not be read. Reload the page to try again.
          </p>
        ) : null}
        {populationsFailed ? (
          <p className="notice notice--negative" role="alert">
            The populations could not be read. Reload the page to try again.
          </p>
        ) : null}
        <div className="field">
          <label className="field__label" htmlFor={ids.paste}>
            Paste a profile
          </label>
          <textarea id={ids.paste} className="input input--multiline keyboard-search__paste" rows={3} value={pasteText} disabled={busy} onChange={(e) => setPasteText(e.target.value)} />
          <div className="form__actions">
            <button type="button" className="button button--secondary" disabled={busy || pasteText.trim() === ''} onClick={() => fill(pasteText)}>
              Fill the grid
            </button>
          </div>
          {pasteProblems.length > 0 ? (
            <ul className="field__error" role="alert">
              {pasteProblems.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          ) : null}
        </div>
        {chemistry ? (
          <MarkerGrid
            chemistry={chemistry}
            texts={texts}
            checked={checked}
            disabled={busy}
            onChange={(markerId, text) => setTexts((t) => ({ ...t, [markerId]: text }))}
            onLeave={(markerId) => setChecked((c) => new Set(c).add(markerId))}
            onPasteProfile={fill}
          />
        ) : (
          <p className="notice">No chemistry is defined yet. An administrator adds one under the chemistries.</p>
        )}
        {problem ? (
          <p className="notice notice--negative" role="alert">
            {problem}
          </p>
        ) : null}
        <div className="form__actions">
          <button type="submit" className="button button--primary" disabled={busy || !chemistry}>
            {busy ? 'Searching…' : 'Search'}
          </button>
          <button
            type="button"
            className="button button--secondary"
            disabled={busy}
            onClick={() => {
              setTexts({});
              setChecked(new Set());
              setPasteText('');
              setPasteProblems([]);
              setProblem(null);
              send({ type: 'clear' });
            }}
          >
            Clear
          </button>
        </div>
      </form>
      {snapshot.matches('failed') && snapshot.context.error ? <SearchFailure error={snapshot.context.error} onRetry={() => send({ type: 'retry' })} /> : null}
      {snapshot.matches('results') && snapshot.context.answer ? <SearchResults orgId={orgId} answer={snapshot.context.answer} /> : null}
    </>
  );
}

/** The KeyboardSearch route (spec 2.6): reads the chemistries, then the search form. */
export function KeyboardSearchPage({ orgId }: { orgId: string }) {
  const api = useApi();
  const principal = usePrincipal();
  const calls = useMemo(() => keyboardSearchApi(api), [api]);
  const profileForms = can(principal, 'Profiles', 'Add') || can(principal, 'Profiles', 'Edit');
  const loaded = useLoaded(`chemistries/${profileForms}`, () => calls.chemistries(profileForms));
  // Issue 17: the LR-ranked search of the references for a typed mixture, as the profile view offers it for a stored stain.
  const mixtureSearch = can(principal, 'Profiles', 'Read') && can(principal, 'Analyses', 'Read');
  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title">{routes.KeyboardSearch.title}</h1>
      {mixtureSearch ? (
        <p>
          <Link href={routes.MixtureSearch.href({ orgId })} className="button button--secondary">
            Mixture search (a typed mixture)
          </Link>
        </p>
      ) : null}
      <LoadState loaded={loaded} missing="The chemistries could not be found.">
        {(chemistries) => <KeyboardSearchForm orgId={orgId} chemistries={chemistries} calls={calls} />}
      </LoadState>
    </section>
  );
}
