import type { Population } from '../../core/schemas/populations';
import { SAMPLE_TYPES } from '../../core/schemas/profiles';
import { MIXTURE_SEARCH_MAX_LIMIT } from '../../machines/mixtureSearch.machine';
import { PopulationPicker } from '../analyses/population-picker';
import { MixtureSearchActor, useBusy, useFieldErrors } from './mixture-search-actor';
import { FieldError, TextBox } from '../ui/form/text-box';

/** The references searched: the organization's approved profiles of the ticked sample types (default: offenders, arrestees, suspects). */
function SampleTypes() {
  const actor = MixtureSearchActor.useActorRef();
  const chosen = MixtureSearchActor.useSelector((s) => s.context.sampleTypes);
  const error = useFieldErrors().sampleTypes;
  return (
    <fieldset className={`calculator__populations mixture-search__sample-types${error ? ' field--invalid' : ''}`}>
      <legend>Searched sample types</legend>
      <div className="mixture-search__checkboxes">
        {SAMPLE_TYPES.map((t) => (
          <label key={t} className="field--checkbox">
            <input type="checkbox" checked={chosen.includes(t)} onChange={() => actor.send({ type: 'sampleType.toggle', sampleType: t })} />
            <span>{t}</span>
          </label>
        ))}
      </div>
      <FieldError error={error} />
    </fieldset>
  );
}

/** What is searched and how much is listed: the populations (ranked by the smallest LR over them), the sample types, top N and the least markers compared. */
export function SearchScope({ populations }: { populations: readonly Population[] }) {
  const actor = MixtureSearchActor.useActorRef();
  const chosen = MixtureSearchActor.useSelector((s) => s.context.populationIds);
  const limit = MixtureSearchActor.useSelector((s) => s.context.limit);
  const minMarkers = MixtureSearchActor.useSelector((s) => s.context.minMarkers);
  const busy = useBusy();
  const errors = useFieldErrors();
  return (
    <fieldset className="mixture-search__scope" disabled={busy}>
      <legend className="visually-hidden">What is searched</legend>
      <div className={errors.populations ? 'field--invalid' : undefined}>
        <PopulationPicker populations={populations} chosen={chosen} disabled={busy} onToggle={(populationId) => actor.send({ type: 'population.toggle', populationId })} />
        <FieldError error={errors.populations} />
      </div>
      <SampleTypes />
      <div className="mixture-parameters__fields">
        <TextBox
          label="Candidates to list (top N)"
          inputMode="numeric"
          value={limit}
          error={errors.limit}
          hint={`Up to ${MIXTURE_SEARCH_MAX_LIMIT}, the strongest first.`}
          onChange={(value) => actor.send({ type: 'scope.edit', field: 'limit', value })}
        />
        <TextBox
          label="Minimum compared markers"
          inputMode="numeric"
          value={minMarkers}
          error={errors.minMarkers}
          hint="A reference typed at fewer of the evidence’s markers is not ranked."
          onChange={(value) => actor.send({ type: 'scope.edit', field: 'minMarkers', value })}
        />
      </div>
    </fieldset>
  );
}
