import type { Profile } from '../../core/schemas/profiles';
import { kitThresholds, stainReplicates, DEFAULT_THRESHOLD, type ContinuousRunEvent, type LoadedStain } from '../../machines/continuousRun.machine';
import type { EditorError } from '../../machines/recordEditor.machine';
import type { CalculatorCalls } from './calculator-api';
import { ProfilePicker } from './profile-picker';

interface ContinuousStainProps {
  orgId: string;
  caseId: string | null;
  chosen: Profile | null;
  stain: LoadedStain | null;
  loading: boolean;
  error: EditorError | null;
  replicatesChosen: readonly boolean[];
  busy: boolean;
  calls: CalculatorCalls;
  onChoose(profile: Profile | null): void;
  send(event: ContinuousRunEvent): void;
}

/** The kit's thresholds as read: the kit's own and each dye's that differs. */
function thresholdText(stain: LoadedStain): string {
  if (!stain.kit) return `The kit’s thresholds could not be read: ${DEFAULT_THRESHOLD} RFU for every marker unless one is typed below.`;
  const { analyticalThreshold } = kitThresholds(stain.kit, DEFAULT_THRESHOLD);
  const dyes = Object.entries(stain.kit.thresholds.dyes).map(([dye, rfu]) => `${dye} ${rfu} RFU`);
  return `Analytical threshold of ${stain.profile.chemistryName}: ${analyticalThreshold} RFU${stain.kit.thresholds.kit === null ? ' (none set for the kit: the model’s default)' : ''}${dyes.length > 0 ? `; per dye ${dyes.join(', ')}` : ''}.`;
}

/** The stain (the Evidence role): its profile, then its replicates with peak heights to weigh, read from the profile (issue 31). */
export function ContinuousStain({ orgId, caseId, chosen, stain, loading, error, replicatesChosen, busy, calls, onChoose, send }: ContinuousStainProps) {
  const replicates = stain ? stainReplicates(stain) : [];
  return (
    <div className="continuous-stain">
      <ProfilePicker role="Evidence" orgId={orgId} caseId={caseId} kind="Autosomal" chosen={chosen} disabled={busy} calls={calls} onChoose={onChoose} />
      {loading ? <p role="status">Reading the evidence’s peak heights…</p> : null}
      {error ? (
        <div className="notice notice--negative" role="alert">
          <p>The evidence could not be read: {error.message}</p>
          <button type="button" className="button button--secondary" onClick={() => send({ type: 'stain.retry' })}>
            Read again
          </button>
        </div>
      ) : null}
      {stain ? (
        <fieldset className="calculator__role" disabled={busy}>
          <legend>Replicates of {stain.profile.profileId}</legend>
          {replicates.length === 0 || replicates.every((r) => r.peaks === 0) ? (
            <p className="notice notice--warning" role="status">
              {stain.profile.profileId} has no peak heights. The continuous model weighs peak heights: import the stain’s file with its heights.
            </p>
          ) : (
            replicates.map((r, i) => (
              <label key={`${r.name}-${i}`} className="field--checkbox">
                <input type="checkbox" checked={replicatesChosen[i] ?? false} disabled={r.peaks === 0} onChange={() => send({ type: 'replicate.toggle', index: i })} />
                <span>
                  {r.name}: {r.peaks} peak{r.peaks === 1 ? '' : 's'} with heights at {r.markers} marker{r.markers === 1 ? '' : 's'}
                </span>
              </label>
            ))
          )}
          <p className="field__hint">{thresholdText(stain)}</p>
        </fieldset>
      ) : null}
    </div>
  );
}
