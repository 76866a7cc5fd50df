import { useId } from 'react';
import { slotLabel, type SlotList } from '../../machines/mixtureSearch.machine';
import type { CalculatorCalls } from '../analyses/calculator-api';
import { ProfilePicker } from '../analyses/profile-picker';
import { MixtureSearchActor, useBusy, useFieldErrors } from './mixture-search-actor';
import { FieldError } from '../ui/form/text-box';

interface SlotProps {
  list: SlotList;
  index: number;
  orgId: string;
  calls: CalculatorCalls;
}

/** Alleles typed per marker of the evidence (15, 16); markers left empty are not sent. Without `onRemove` (the typed first replicate) it stays. */
function TypedProfile({ label, alleles, onType, onRemove }: { label: string; alleles: Readonly<Record<string, string>>; onType(marker: string, text: string): void; onRemove?: () => void }) {
  const id = useId();
  const markers = MixtureSearchActor.useSelector((s) => s.context.markers);
  return (
    <fieldset className="calculator__role mixture-search__typed">
      <legend>{label} (typed)</legend>
      <p className="field__hint">The alleles seen at each marker, separated by commas or spaces; leave a marker empty to leave it out.</p>
      <div className="mixture-search__markers">
        {markers.map((marker, m) => (
          <div key={marker} className="field">
            <label className="field__label" htmlFor={`${id}-${m}`}>
              {marker}
            </label>
            <input
              id={`${id}-${m}`}
              className="input"
              type="text"
              autoComplete="off"
              value={alleles[marker] ?? ''}
              onChange={(e) => onType(marker, e.target.value)}
            />
          </div>
        ))}
      </div>
      {onRemove ? (
        <div className="form__actions">
          <button type="button" className="button button--secondary" onClick={onRemove}>
            Remove {label}
          </button>
        </div>
      ) : null}
    </fieldset>
  );
}

/** One further replicate or known contributor: a stored profile's picker, or its alleles typed; its message below. */
function ProfileSlotField({ list, index, orgId, calls }: SlotProps) {
  const actor = MixtureSearchActor.useActorRef();
  const slot = MixtureSearchActor.useSelector((s) => s.context[list][index]);
  const error = useFieldErrors()[`${list}.${index}`];
  if (!slot) return null;
  const label = slotLabel(list, index);
  return (
    <div className={error ? 'field--invalid' : undefined}>
      {slot.source === 'typed' ? (
        <TypedProfile
          label={label}
          alleles={slot.alleles}
          onType={(marker, text) => actor.send({ type: 'slot.type', list, index, marker, text })}
          onRemove={() => actor.send({ type: 'slot.remove', list, index })}
        />
      ) : (
        <ProfilePicker
          role={label}
          orgId={orgId}
          caseId={null}
          kind="Autosomal"
          chosen={slot.profile}
          disabled={false}
          calls={calls}
          onChoose={(profile) => actor.send({ type: 'slot.choose', list, index, profile })}
          onRemove={() => actor.send({ type: 'slot.remove', list, index })}
        />
      )}
      <FieldError error={error} />
    </div>
  );
}

const ADD_LABEL: Record<SlotList, string> = { replicates: 'replicate', knownContributors: 'known contributor' };

/** A list's slots and its two Add buttons (a stored profile, or alleles typed), offered while the machine takes another. */
function SlotGroup({ list, orgId, calls }: Omit<SlotProps, 'index'>) {
  const actor = MixtureSearchActor.useActorRef();
  const count = MixtureSearchActor.useSelector((s) => s.context[list].length);
  const canAdd = MixtureSearchActor.useSelector((s) => s.can({ type: 'slot.add', list, source: 'stored' }));
  return (
    <>
      {Array.from({ length: count }, (_, index) => (
        <ProfileSlotField key={index} list={list} index={index} orgId={orgId} calls={calls} />
      ))}
      <div className="calculator__slot-actions">
        <button type="button" className="button button--secondary" disabled={!canAdd} onClick={() => actor.send({ type: 'slot.add', list, source: 'stored' })}>
          Add a stored {ADD_LABEL[list]}
        </button>
        <button type="button" className="button button--secondary" disabled={!canAdd} onClick={() => actor.send({ type: 'slot.add', list, source: 'typed' })}>
          Add a typed {ADD_LABEL[list]}
        </button>
      </div>
    </>
  );
}

/**
 * The evidence (issue 17): the profile the search was opened from as its first replicate, further replicates of the
 * same stain and the known contributors (a victim, a consensual partner), each a stored profile or typed alleles.
 */
export function EvidenceFields({ orgId, calls }: { orgId: string; calls: CalculatorCalls }) {
  const actor = MixtureSearchActor.useActorRef();
  const evidence = MixtureSearchActor.useSelector((s) => s.context.evidence);
  const typedEvidence = MixtureSearchActor.useSelector((s) => s.context.typedEvidence);
  const error = useFieldErrors().evidence;
  const busy = useBusy();
  return (
    <>
      <fieldset className="mixture-search__evidence" disabled={busy}>
        <legend>Evidence</legend>
        {evidence ? (
          <p>
            Replicate 1: <strong>{evidence.sampleName}</strong> (case {evidence.caseNumber}), the profile this search was opened from.
          </p>
        ) : (
          <div className={error ? 'field--invalid' : undefined}>
            <TypedProfile label="Replicate 1" alleles={typedEvidence} onType={(marker, text) => actor.send({ type: 'evidence.type', marker, text })} />
          </div>
        )}
        <FieldError error={error} />
        <div className="calculator__choices">
          <SlotGroup list="replicates" orgId={orgId} calls={calls} />
        </div>
      </fieldset>
      <fieldset className="mixture-search__evidence" disabled={busy}>
        <legend>Known contributors</legend>
        <p className="field__hint">Persons who contributed under both hypotheses, such as the victim; the candidate takes the person of interest’s place under Hp.</p>
        <div className="calculator__choices">
          <SlotGroup list="knownContributors" orgId={orgId} calls={calls} />
        </div>
      </fieldset>
    </>
  );
}
