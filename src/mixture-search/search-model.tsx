import { useId } from 'react';
import type { ContinuousPart, SearchModel } from '../../machines/mixtureSearch.machine';
import { FieldError } from '../ui/form/text-box';
import { MixtureSearchActor, useBusy, useFieldErrors } from './mixture-search-actor';

const MODELS: [SearchModel, string, string][] = [
  ['semi-continuous', 'Semi-continuous', 'Allele calls with drop-out and drop-in.'],
  ['continuous', 'Continuous', 'Peak heights (gamma model): the evidence fitted once under Hd, each listed candidate fitted again under Hp. Needs a stain imported with its heights.'],
];
const PARTS: [ContinuousPart, string][] = [
  ['degradation', 'Degradation (peak heights fall with fragment size)'],
  ['backwardStutter', 'Backward stutter (one repeat shorter)'],
  ['forwardStutter', 'Forward stutter (one repeat longer; needs backward stutter)'],
];

/**
 * The model that weighs the candidates (issue 31): semi-continuous or continuous, and the continuous model's parts.
 * Says at once when the evidence has no peak heights for the continuous model.
 */
export function SearchModelChoice() {
  const id = useId();
  const actor = MixtureSearchActor.useActorRef();
  const model = MixtureSearchActor.useSelector((s) => s.context.model);
  const parts = MixtureSearchActor.useSelector((s) => s.context.continuousParts);
  const busy = useBusy();
  const error = useFieldErrors().model;
  return (
    <fieldset className={`calculator__role mixture-search__model${error ? ' field--invalid' : ''}`} disabled={busy}>
      <legend>Model</legend>
      {MODELS.map(([value, label, hint]) => (
        <label key={value} className="field--checkbox">
          <input type="radio" name={`${id}-model`} checked={model === value} onChange={() => actor.send({ type: 'model.choose', model: value })} />
          <span>
            {label}
            <span className="field__hint"> — {hint}</span>
          </span>
        </label>
      ))}
      {model === 'continuous' ? (
        <fieldset className="mixture-parameters__dropout">
          <legend className="field__label">Parts of the continuous model</legend>
          {PARTS.map(([part, label]) => (
            <label key={part} className="field--checkbox">
              <input type="checkbox" checked={parts[part]} onChange={(e) => actor.send({ type: 'continuous.check', part, checked: e.target.checked })} />
              <span>{label}</span>
            </label>
          ))}
          <p className="field__hint">The analytical threshold is the stain’s kit’s; contributors, drop-in and θ are the parameters below.</p>
        </fieldset>
      ) : null}
      <FieldError error={error} />
    </fieldset>
  );
}
