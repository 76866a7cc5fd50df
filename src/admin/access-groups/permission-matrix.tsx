import { ENTITIES, VERBS, type Entity, type Verb } from '../../../core/permissions';
import type { PermissionGrants } from '../../../core/schemas/access-groups';
import { ENTITY_LABELS, VERB_LABELS } from './permission-labels';
import './access-groups.css';

/** `grants` with `verb` on `entity` switched on or off; verbs stay in VERBS order, empty rows drop out. */
export function toggleGrant(grants: PermissionGrants, entity: Entity, verb: Verb): PermissionGrants {
  const current = grants[entity] ?? [];
  const verbs = VERBS.filter((v) => (v === verb ? !current.includes(v) : current.includes(v)));
  const next = { ...grants };
  if (verbs.length > 0) next[entity] = verbs;
  else delete next[entity];
  return next;
}

interface PermissionMatrixProps {
  value: PermissionGrants;
  onChange(next: PermissionGrants): void;
  disabled?: boolean;
  /** Id of the element that names the table (e.g. the field's legend). */
  labelledBy?: string;
}

/**
 * A role's permissions as a grid of checkboxes: one row per entity, one column per verb. A real
 * table with row and column headers; each checkbox is also named "<entity> <verb>" on its own.
 */
export function PermissionMatrix({ value, onChange, disabled = false, labelledBy }: PermissionMatrixProps) {
  return (
    <div className="permission-matrix">
      <table className="permission-matrix__table" aria-labelledby={labelledBy}>
        <thead>
          <tr>
            <th scope="col">Entity</th>
            {VERBS.map((verb) => (
              <th scope="col" key={verb}>
                {VERB_LABELS[verb]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {ENTITIES.map((entity) => (
            <tr key={entity}>
              <th scope="row">{ENTITY_LABELS[entity]}</th>
              {VERBS.map((verb) => (
                <td key={verb}>
                  <input
                    type="checkbox"
                    aria-label={`${ENTITY_LABELS[entity]} ${VERB_LABELS[verb]}`}
                    checked={value[entity]?.includes(verb) ?? false}
                    disabled={disabled}
                    onChange={() => onChange(toggleGrant(value, entity, verb))}
                  />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
