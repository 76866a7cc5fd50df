import { useEffect, useId, useState } from 'react';
import type { Profile, ProfileKind } from '../../core/schemas/profiles';
import { PROFILE_STATUS_LABELS } from '../../core/schemas/profiles';
import type { CalculatorCalls } from './calculator-api';
import { PROFILE_CHOICES } from './calculator-api';

/** How a profile reads in a choice: sample, case and status, so two samples of the same name stay apart. */
export const profileChoiceLabel = (p: Pick<Profile, 'profileId' | 'caseNumber' | 'status'>) =>
  `${p.profileId} (case ${p.caseNumber}, ${PROFILE_STATUS_LABELS[p.status].toLowerCase()})`;

interface ProfilePickerProps {
  role: string;
  orgId: string;
  /** Offer only this case's profiles (the calculator was opened from the case). */
  caseId: string | null;
  kind: ProfileKind;
  chosen: Profile | null;
  disabled: boolean;
  calls: CalculatorCalls;
  onChoose(profile: Profile | null): void;
  /** Offers a Remove button (a mixture run's further replicate or known contributor). */
  onRemove?: () => void;
}

/** One role's profile: type part of a sample name or case number to narrow the list, then choose. */
export function ProfilePicker({ role, orgId, caseId, kind, chosen, disabled, calls, onChoose, onRemove }: ProfilePickerProps) {
  const id = useId();
  const [search, setSearch] = useState('');
  const [found, setFound] = useState<{ items: Profile[]; count: number } | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let current = true;
    // Wait for a pause in typing before asking the server.
    const timer = setTimeout(() => {
      calls.profiles(orgId, caseId, kind, search).then(
        (result) => current && (setFound(result), setFailed(false)),
        () => current && setFailed(true),
      );
    }, 250);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [calls, orgId, caseId, kind, search]);

  const items = found?.items ?? [];
  // The chosen profile stays offered while the search shows others.
  const options = chosen && !items.some((p) => p.id === chosen.id) ? [chosen, ...items] : items;
  return (
    <fieldset className="calculator__role" disabled={disabled}>
      <legend>{role}</legend>
      <label className="field" htmlFor={`${id}-search`}>
        <span className="field__label">Find a profile for {role}</span>
        <input
          id={`${id}-search`}
          className="input"
          type="search"
          placeholder="Sample name or case number"
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
      </label>
      <label className="field" htmlFor={`${id}-profile`}>
        <span className="field__label">{role}</span>
        <select
          id={`${id}-profile`}
          className="input"
          value={chosen?.id ?? ''}
          onChange={(e) => onChoose(options.find((p) => p.id === e.target.value) ?? null)}
        >
          <option value="">Choose a profile</option>
          {options.map((p) => (
            <option key={p.id} value={p.id}>
              {profileChoiceLabel(p)}
            </option>
          ))}
        </select>
      </label>
      {failed ? (
        <p className="field__error" role="alert">
          The profiles could not be read. Type again to retry.
        </p>
      ) : found && found.count > PROFILE_CHOICES ? (
        <p className="field__hint">
          Showing {PROFILE_CHOICES} of {found.count} profiles; type to narrow the list.
        </p>
      ) : found && found.count === 0 ? (
        <p className="field__hint">No {kind === 'YStr' ? 'Y-STR' : 'autosomal'} profile matches.</p>
      ) : null}
      {onRemove ? (
        <div className="form__actions">
          <button type="button" className="button button--secondary" onClick={onRemove}>
            Remove {role}
          </button>
        </div>
      ) : null}
    </fieldset>
  );
}

interface SlotPickerProps extends Omit<ProfilePickerProps, 'chosen' | 'onChoose'> {
  /** The slot's profile id (null: none chosen). */
  profileId: string | null;
  /** The profiles picked so far by id, so the picker shows its own. */
  picked: Readonly<Record<string, Profile>>;
  onPick(profile: Profile): void;
  /** The slot's new profile id. */
  onChange(profileId: string | null): void;
}

/** A picker for a slot the machine holds by profile id (a replicate, a known contributor): it keeps the profile picked for the slot's label. */
export function SlotPicker({ profileId, picked, onPick, onChange, ...picker }: SlotPickerProps) {
  return (
    <ProfilePicker
      {...picker}
      chosen={profileId ? (picked[profileId] ?? null) : null}
      onChoose={(profile) => {
        if (profile) onPick(profile);
        onChange(profile?.id ?? null);
      }}
    />
  );
}
