import { useId } from 'react';
import { MAX_MIXTURE_CONTRIBUTORS } from '../../core/schemas/mixtures';
import type { DropoutChoice } from '../../machines/analysisRun.machine';
import { FieldError, TextBox } from '../ui/form/text-box';

const DROPOUT_LABELS: readonly { value: DropoutChoice; label: string }[] = [
  { value: 'conservative', label: 'Estimated — conservative (Monte-Carlo 95th percentile under Hd)' },
  { value: 'maximum-likelihood', label: 'Estimated — maximum likelihood per hypothesis' },
  { value: 'all', label: 'Fixed, one value for all contributors' },
  { value: 'each', label: 'Fixed, one value per contributor' },
];

const CONTRIBUTOR_OPTIONS = Array.from({ length: MAX_MIXTURE_CONTRIBUTORS }, (_, i) => String(i + 1));

/** The values and messages of a mixture's parameters, whichever screen holds them (the calculator, the mixture search). */
export interface MixtureParameterValues {
  contributors: string;
  dropIn: string;
  theta: string;
  dropout: DropoutChoice;
  dropoutAll: string;
  dropoutEach: readonly string[];
  /** Hd's own drop-outs (issue 30); all blank: LRmix's convention. */
  dropoutHdEach?: readonly string[];
}

export interface MixtureParameterErrors {
  contributors?: string | undefined;
  dropIn?: string | undefined;
  theta?: string | undefined;
  /** The drop-out group as a whole. */
  dropout?: string | undefined;
  dropoutAll?: string | undefined;
  dropoutEach?: (index: number) => string | undefined;
  dropoutHdEach?: (index: number) => string | undefined;
}

interface MixtureParameterFieldsProps {
  values: MixtureParameterValues;
  errors: MixtureParameterErrors;
  /** Who each per-contributor drop-out is for, in drop-out order. */
  contributorLabels: readonly string[];
  /** Who Hp holds, for the number of contributors' hint ("the person of interest", "the candidate"). */
  hpHolds: string;
  onEdit(field: 'contributors' | 'dropIn' | 'theta' | 'dropoutAll', value: string): void;
  onChooseDropout(dropout: DropoutChoice): void;
  onEditDropout(contributor: number, value: string): void;
  /** Who each of Hd's drop-outs is for; with onEditDropoutHd, Hd's drop-outs may be set (issue 30). */
  hdContributorLabels?: readonly string[];
  onEditDropoutHd?(contributor: number, value: string): void;
}

/**
 * A mixture's parameters (issue 17, GENETICS.md "Mixtures"): the number of contributors, drop-in c, θ and the
 * drop-out — estimated (conservative or maximum likelihood) or fixed for all or per contributor — each with its
 * message beside it. Shared by the calculator and the mixture search; their machines read the values.
 */
export function MixtureParameterFields({ values: v, errors, contributorLabels, hpHolds, onEdit, onChooseDropout, onEditDropout, hdContributorLabels, onEditDropoutHd }: MixtureParameterFieldsProps) {
  const id = useId();
  return (
    <>
      <div className="mixture-parameters__fields">
        <div className={`field${errors.contributors ? ' field--invalid' : ''}`}>
          <label className="field__label" htmlFor={`${id}-contributors`}>
            Number of contributors
          </label>
          <select
            id={`${id}-contributors`}
            className="input"
            value={v.contributors}
            aria-invalid={errors.contributors ? true : undefined}
            aria-describedby={errors.contributors ? `${id}-contributors-error` : `${id}-contributors-hint`}
            onChange={(e) => onEdit('contributors', e.target.value)}
          >
            {CONTRIBUTOR_OPTIONS.map((n) => (
              <option key={n} value={n}>
                {n}
              </option>
            ))}
          </select>
          <p className="field__hint" id={`${id}-contributors-hint`}>
            Under Hp {hpHolds} and the known contributors, the rest unknowns.
          </p>
          {errors.contributors ? (
            <p className="field__error" id={`${id}-contributors-error`}>
              {errors.contributors}
            </p>
          ) : null}
        </div>
        <TextBox label="Drop-in (c)" inputMode="decimal" value={v.dropIn} error={errors.dropIn} hint="Chance of one allele from no contributor, weighed c·p." onChange={(value) => onEdit('dropIn', value)} />
        <TextBox label="θ" inputMode="decimal" value={v.theta} error={errors.theta} hint="Balding–Nichols co-ancestry correction." onChange={(value) => onEdit('theta', value)} />
      </div>
      <fieldset className="mixture-parameters__dropout">
        <legend className="field__label">Drop-out</legend>
        {DROPOUT_LABELS.map((c) => (
          <label key={c.value} className="field--checkbox">
            <input type="radio" name={`${id}-dropout`} checked={v.dropout === c.value} onChange={() => onChooseDropout(c.value)} />
            <span>{c.label}</span>
          </label>
        ))}
        {v.dropout === 'all' ? <TextBox label="Drop-out for all contributors" inputMode="decimal" value={v.dropoutAll} error={errors.dropoutAll} onChange={(value) => onEdit('dropoutAll', value)} /> : null}
        {v.dropout === 'each' ? (
          <div className="mixture-parameters__fields">
            {v.dropoutEach.map((value, i) => (
              <TextBox key={i} label={`Drop-out of ${contributorLabels[i]}`} inputMode="decimal" value={value} error={errors.dropoutEach?.(i)} onChange={(next) => onEditDropout(i, next)} />
            ))}
          </div>
        ) : null}
        {v.dropout === 'each' && onEditDropoutHd && v.dropoutHdEach ? (
          <fieldset className="mixture-parameters__fields">
            <legend className="field__label">Drop-out under Hd (optional)</legend>
            {v.dropoutHdEach.map((value, i) => (
              <TextBox
                key={i}
                label={`Drop-out under Hd of ${hdContributorLabels?.[i] ?? `contributor ${i + 1}`}`}
                inputMode="decimal"
                value={value}
                error={errors.dropoutHdEach?.(i)}
                onChange={(next) => onEditDropoutHd(i, next)}
              />
            ))}
          </fieldset>
        ) : null}
        {v.dropout === 'each' ? (
          <p className="field__hint">
            Under Hd the unknown in the {hpHolds.replace(/^the /, '')}’s place takes the unknowns’ value (LRmix Studio’s convention)
            {onEditDropoutHd ? ', unless Hd’s drop-outs are given, each of them' : ''}; the result states both hypotheses’ drop-outs.
          </p>
        ) : null}
        <FieldError error={errors.dropout} />
      </fieldset>
    </>
  );
}
