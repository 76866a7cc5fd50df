import { useEffect, useRef, useState } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import type { AnalysisPedigree } from '../../../core/schemas/analyses';
import { useFieldError } from '../../ui/form/field';
import { PedigreePicture } from './pedigree-picture';
import {
  addPerson,
  parentChoices,
  pedigreeOf,
  removePerson,
  renamePerson,
  rowsOf,
  setParent,
  setSex,
  setTarget,
  setTyped,
  type PedigreeRows,
  type PersonRow,
} from './pedigree-rows';

interface RowProps {
  state: PedigreeRows;
  row: PersonRow;
  index: number;
  readOnly: boolean;
  update(next: PedigreeRows): void;
}

function ParentSelect({ state, row, index, which, readOnly, update }: RowProps & { which: 'father' | 'mother' }) {
  const error = useFieldError(`pedigree.persons.${index}.${which}`);
  return (
    <td>
      <select
        className="input pedigree-field__parent"
        aria-label={`${which === 'father' ? 'Father' : 'Mother'} of person ${index + 1}`}
        aria-invalid={error ? true : undefined}
        value={row[which] ?? ''}
        disabled={readOnly}
        onChange={(e) => update(setParent(state, row.key, which, e.target.value === '' ? null : e.target.value))}
      >
        <option value="">— founder —</option>
        {parentChoices(state, row.key, which).map((p) => (
          <option key={p.key} value={p.key}>
            {p.id}
          </option>
        ))}
      </select>
      {error ? <p className="field__error">{error}</p> : null}
    </td>
  );
}

function PersonRowView(props: RowProps) {
  const { state, row, index, readOnly, update } = props;
  const n = index + 1;
  const nameError = useFieldError(`pedigree.persons.${index}.id`);
  return (
    <tr>
      <td>
        <input
          className="input pedigree-field__name"
          aria-label={`Name of person ${n}`}
          aria-invalid={nameError ? true : undefined}
          value={row.id}
          readOnly={readOnly}
          onChange={(e) => update(renamePerson(state, row.key, e.target.value))}
        />
        {nameError ? <p className="field__error">{nameError}</p> : null}
      </td>
      <td>
        <select className="input pedigree-field__sex" aria-label={`Sex of person ${n}`} value={row.sex} disabled={readOnly} onChange={(e) => update(setSex(state, row.key, e.target.value as PersonRow['sex']))}>
          <option value="male">Male</option>
          <option value="female">Female</option>
        </select>
      </td>
      <ParentSelect {...props} which="father" />
      <ParentSelect {...props} which="mother" />
      <td className="pedigree-field__check">
        <input type="checkbox" aria-label={`Person ${n} typed (a role)`} checked={row.typed} disabled={readOnly} onChange={(e) => update(setTyped(state, row.key, e.target.checked))} />
      </td>
      <td className="pedigree-field__check">
        <input type="radio" name="pedigree-target" aria-label={`Person ${n} is the tested person`} checked={state.target === row.key} disabled={readOnly} onChange={() => update(setTarget(state, row.key))} />
      </td>
      <td>
        {readOnly ? null : (
          <button type="button" className="button button--ghost" aria-label={`Remove person ${n}`} onClick={() => update(removePerson(state, row.key))}>
            Remove
          </button>
        )}
      </td>
    </tr>
  );
}

/**
 * A Pedigree analysis's pedigree (GENETICS.md "Pedigrees") and, from it, its roles: a table of persons with their
 * parents, which are typed and which is tested, and the pedigree drawn live. H2 is the tested person unrelated
 * unless a stored analysis has H2 drawn out, which is kept as it is.
 */
export function PedigreeField({ readOnly }: { readOnly: boolean }) {
  const { setValue, getValues } = useFormContext();
  const pedigree = useWatch({ name: 'pedigree' }) as AnalysisPedigree | null | undefined;
  const [state, setState] = useState(() => rowsOf(pedigree, getValues('roles') as string[]));
  const written = useRef(JSON.stringify(pedigreeOf(state).pedigree));
  // The form was reset (the analysis loaded or saved): start again from what it holds.
  useEffect(() => {
    const now = JSON.stringify(pedigree ?? null);
    if (now === written.current) return;
    const next = rowsOf(pedigree, getValues('roles') as string[]);
    written.current = JSON.stringify(pedigreeOf(next).pedigree);
    setState(next);
  }, [pedigree, getValues]);
  const update = (next: PedigreeRows) => {
    setState(next);
    const out = pedigreeOf(next);
    written.current = JSON.stringify(out.pedigree);
    setValue('pedigree', out.pedigree, { shouldDirty: true });
    setValue('roles', out.roles, { shouldDirty: true });
  };
  const error = useFieldError('pedigree');
  const targetError = useFieldError('pedigree.target');
  const rolesError = useFieldError('roles');
  const drawn = pedigreeOf(state);
  return (
    <fieldset className={`pedigree-field${error ? ' field--invalid' : ''}`} aria-describedby="pedigree-field-hint">
      <legend className="field__label">
        Pedigree<span aria-hidden="true"> *</span>
      </legend>
      <p className="field__hint" id="pedigree-field-hint">
        H1, the relationship tested: each person with their parents (both or none). Typed persons are the roles, whose profiles are compared; the tested person is the missing person or person of interest.
      </p>
      {error ? (
        <p className="field__error" role="alert">
          {error}
        </p>
      ) : null}
      <div className="pedigree-field__layout">
        <div className="pedigree-field__table">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Sex</th>
                <th scope="col">Father</th>
                <th scope="col">Mother</th>
                <th scope="col">Typed</th>
                <th scope="col">Tested</th>
                <th scope="col">
                  <span className="visually-hidden">Remove</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {state.rows.map((row, i) => (
                <PersonRowView key={row.key} state={state} row={row} index={i} readOnly={readOnly} update={update} />
              ))}
            </tbody>
          </table>
          {readOnly || state.rows.length >= 40 ? null : (
            <button type="button" className="button button--secondary" onClick={() => update(addPerson(state))}>
              Add person
            </button>
          )}
          {targetError ? <p className="field__error">Tested person: {targetError}</p> : null}
          <p className="pedigree-field__roles" aria-live="polite">
            Roles, in order: {drawn.roles.length > 0 ? drawn.roles.join(', ') : 'none yet (mark the typed persons)'}
          </p>
          {rolesError ? <p className="field__error">Roles: {rolesError}</p> : null}
          <p className="field__hint">
            H2: {state.alternative ? `drawn out as stored (${state.alternative.length} persons), kept as it is.` : 'the tested person unrelated to the others (where they are a parent, an unknown person takes their place).'}
          </p>
        </div>
        {state.rows.length > 0 ? <PedigreePicture persons={drawn.pedigree.persons} typed={drawn.roles} target={drawn.pedigree.target} label="H1, as drawn in the table" /> : null}
      </div>
      {state.alternative ? <PedigreePicture persons={state.alternative} typed={drawn.roles} target={drawn.pedigree.target} label="H2, as stored" /> : null}
    </fieldset>
  );
}
