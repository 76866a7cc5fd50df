import { useController } from 'react-hook-form';
import { useFieldError } from '../../ui/form/field';

/** The most roles an analysis may name (core/schemas/analyses: an allele expression has at most six letters). */
const MAX_ROLES = 3;

function RoleItem({ index, value, count, readOnly, onChange, onMove, onRemove }: {
  index: number;
  value: string;
  count: number;
  readOnly: boolean;
  onChange(value: string): void;
  onMove(to: number): void;
  onRemove(): void;
}) {
  const error = useFieldError(`roles.${index}`);
  const id = `role-${index}`;
  return (
    <li className={`roles-field__item${error ? ' field--invalid' : ''}`}>
      <span className="roles-field__position" aria-hidden="true">
        {index + 1}
      </span>
      <input
        id={id}
        className="input"
        aria-label={`Role ${index + 1}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        value={value}
        readOnly={readOnly}
        onChange={(e) => onChange(e.target.value)}
      />
      {readOnly ? null : (
        <>
          <button type="button" className="button button--ghost" aria-label={`Move role ${index + 1} up`} disabled={index === 0} onClick={() => onMove(index - 1)}>
            ↑
          </button>
          <button type="button" className="button button--ghost" aria-label={`Move role ${index + 1} down`} disabled={index === count - 1} onClick={() => onMove(index + 1)}>
            ↓
          </button>
          <button type="button" className="button button--ghost" aria-label={`Remove role ${index + 1}`} onClick={onRemove}>
            Remove
          </button>
        </>
      )}
      {error ? (
        <p className="field__error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </li>
  );
}

/** The form's `roles`: an ordered list of names (the order of the allele expression's genotypes, GENETICS.md). */
export function RolesField({ readOnly }: { readOnly: boolean }) {
  const { field } = useController({ name: 'roles' });
  const error = useFieldError('roles');
  const roles = (field.value as string[] | undefined) ?? [];
  const set = (next: string[]) => field.onChange(next);
  const move = (from: number, to: number) => {
    const next = [...roles];
    const [moved] = next.splice(from, 1);
    next.splice(to, 0, moved!);
    set(next);
  };
  return (
    <fieldset className={`roles-field${error ? ' field--invalid' : ''}`}>
      <legend className="field__label">
        Roles<span aria-hidden="true"> *</span>
      </legend>
      <p className="field__hint">In the order of the allele expression: the first role's genotype comes first (e.g. Child, Alleged father).</p>
      <ol className="roles-field__list">
        {roles.map((role, i) => (
          <RoleItem
            key={i}
            index={i}
            value={role}
            count={roles.length}
            readOnly={readOnly}
            onChange={(v) => set(roles.map((r, j) => (j === i ? v : r)))}
            onMove={(to) => move(i, to)}
            onRemove={() => set(roles.filter((_, j) => j !== i))}
          />
        ))}
      </ol>
      {readOnly || roles.length >= MAX_ROLES ? null : (
        <button type="button" className="button button--secondary" onClick={() => set([...roles, ''])}>
          Add role
        </button>
      )}
      {error ? <p className="field__error">{error}</p> : null}
    </fieldset>
  );
}
