import { useEffect, useId, useState } from 'react';
import { SYNTHETIC_LABEL } from '../../core/chance-display';
import { FAMILIAL_DEFAULT_LIMIT, FAMILIAL_MAX_LIMIT, type FamilialSearchOptions } from '../../core/schemas/familial-search';
import { FamilialSearchActor } from './familial-search-actor';

/**
 * The settings of a familial search: the on-request rule, the populations (the rule's defaults ticked;
 * a synthetic one labelled), how many candidates; Run, Cancel while it runs, Clear. The machine says
 * which of them may be pressed.
 */
export function FamilialSearchForm({ options }: { options: FamilialSearchOptions }) {
  const actor = FamilialSearchActor.useActorRef();
  const busy = FamilialSearchActor.useSelector((s) => s.hasTag('busy'));
  const running = FamilialSearchActor.useSelector((s) => s.matches('running'));
  const canClear = FamilialSearchActor.useSelector((s) => s.can({ type: 'search.clear' }));
  const [ruleId, setRuleId] = useState(options.rules[0]?.id ?? '');
  const rule = options.rules.find((r) => r.id === ruleId);
  const [populationIds, setPopulationIds] = useState<string[]>(rule?.defaultPopulationIds ?? []);
  const [limit, setLimit] = useState(String(FAMILIAL_DEFAULT_LIMIT));
  const [problem, setProblem] = useState<string | null>(null);
  const ids = { rule: useId(), limit: useId() };

  // Another rule brings its own default populations.
  useEffect(() => setPopulationIds(rule?.defaultPopulationIds ?? []), [rule]);

  const run = () => {
    const top = Number(limit);
    const refusal =
      !rule
        ? 'Choose a search rule.'
        : populationIds.length === 0
          ? 'Choose at least one population.'
          : !Number.isInteger(top) || top < 1 || top > FAMILIAL_MAX_LIMIT
            ? `The number of candidates is a whole number from 1 to ${FAMILIAL_MAX_LIMIT}.`
            : null;
    setProblem(refusal);
    if (refusal || !rule) return;
    actor.send({ type: 'search.run', request: { searchRuleId: rule.id, populationIds, limit: top } });
  };

  return (
    <form
      className="form familial-search__form"
      aria-label="Familial search settings"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        run();
      }}
    >
      <div className="familial-search__settings">
        <div className="field">
          <label className="field__label" htmlFor={ids.rule}>
            Search rule
          </label>
          <select id={ids.rule} className="input" value={ruleId} disabled={busy} onChange={(e) => setRuleId(e.target.value)}>
            {options.rules.map((r) => (
              <option key={r.id} value={r.id}>
                {r.name}
              </option>
            ))}
          </select>
          {rule ? (
            <p className="field__hint">
              {rule.analysisName} against the organization’s approved {rule.searchedSampleTypes.join(', ')} profiles.
            </p>
          ) : null}
        </div>
        <div className="field">
          <label className="field__label" htmlFor={ids.limit}>
            Candidates to list (top N)
          </label>
          <input id={ids.limit} className="input" type="number" min={1} max={FAMILIAL_MAX_LIMIT} value={limit} disabled={busy} onChange={(e) => setLimit(e.target.value)} />
        </div>
      </div>
      <fieldset className="familial-search__populations" disabled={busy}>
        <legend>Populations</legend>
        {options.populations.length === 0 ? <p className="field__hint">No population of this kind is shared with this organization.</p> : null}
        {options.populations.map((p) => (
          <label key={p.id} className="field--checkbox">
            <input
              type="checkbox"
              checked={populationIds.includes(p.id)}
              onChange={() => setPopulationIds((chosen) => (chosen.includes(p.id) ? chosen.filter((id) => id !== p.id) : [...chosen, p.id]))}
            />
            <span>
              {p.name}
              {p.synthetic ? <span className="synthetic-label">{SYNTHETIC_LABEL}</span> : null}
            </span>
          </label>
        ))}
        <p className="field__hint">Candidates are ranked by their smallest likelihood ratio over the populations chosen.</p>
      </fieldset>
      {problem ? (
        <p className="notice notice--negative" role="alert">
          {problem}
        </p>
      ) : null}
      <div className="form__actions">
        <button type="submit" className="button button--primary" disabled={busy}>
          {running ? 'Searching…' : 'Run familial search'}
        </button>
        {running ? (
          <button type="button" className="button button--secondary" onClick={() => actor.send({ type: 'search.cancel' })}>
            Cancel
          </button>
        ) : (
          <button type="button" className="button button--secondary" disabled={!canClear} onClick={() => actor.send({ type: 'search.clear' })}>
            Clear
          </button>
        )}
      </div>
    </form>
  );
}
