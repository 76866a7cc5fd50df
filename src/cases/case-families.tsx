import { useCallback, useEffect, useState } from 'react';
import type { Family } from '../../core/schemas/families';
import { toEditorError, type EditorError } from '../../machines/recordEditor.machine';
import type { FamilyCalls, FamilyChoices } from './families-api';
import { FamilyCard } from './family-card';
import { FamilyFormPanel } from './family-form';

type Load<T> = { status: 'loading' } | { status: 'failed'; error: EditorError } | { status: 'loaded'; value: T };

/** What the section shows below the list: nothing, or the form adding a family (null) or changing one. */
type Editing = { family: Family | null; choices: Load<FamilyChoices> } | null;

interface CaseFamiliesProps {
  caseId: string;
  /** The case's organization: the populations offered are those shared with it. */
  organizationId: string;
  calls: FamilyCalls;
  /** Cases Edit (core/permissions.ts `can`), as the other case tabs ask. */
  canEdit: boolean;
  /** The case's pending hits (all its hits for a user without Hits Publish). */
  hitsHref: string;
}

/**
 * The missing-person families of a case (issue 16): each with its shape, relatives, status and hits found; with
 * Cases Edit a form adds or changes one, and each is activated, deactivated or deleted from its card.
 */
export function CaseFamilies({ caseId, organizationId, calls, canEdit, hitsHref }: CaseFamiliesProps) {
  const [families, setFamilies] = useState<Load<Family[]>>({ status: 'loading' });
  const [generation, setGeneration] = useState(0);
  const [editing, setEditing] = useState<Editing>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  useEffect(() => {
    let current = true;
    calls.list(caseId).then(
      (value) => current && setFamilies({ status: 'loaded', value }),
      (err: unknown) => current && setFamilies({ status: 'failed', error: toEditorError(err) }),
    );
    return () => {
      current = false;
    };
  }, [calls, caseId, generation]);

  const edit = (family: Family | null) => {
    setNotice(null);
    setEditing({ family, choices: { status: 'loading' } });
    calls.choices(caseId, organizationId).then(
      (value) => setEditing((e) => (e && e.family === family ? { family, choices: { status: 'loaded', value } } : e)),
      (err: unknown) => setEditing((e) => (e && e.family === family ? { family, choices: { status: 'failed', error: toEditorError(err) } } : e)),
    );
  };
  const saved = (family: Family) => {
    setEditing(null);
    setNotice(`${family.name} saved. Activate it to search the remains.`);
    reload();
  };
  const deleted = (family: Family) => {
    setNotice(`${family.name} deleted.`);
    reload();
  };

  // A user who cannot add one sees the section only where the case has families.
  if (!canEdit && families.status === 'loaded' && families.value.length === 0) return null;
  return (
    <section className="case-families" aria-labelledby="case-families-title">
      <div className="case-tab__header">
        <h2 id="case-families-title">Families</h2>
        {canEdit && !editing ? (
          <button type="button" className="button button--primary" onClick={() => edit(null)}>
            Add family
          </button>
        ) : null}
      </div>
      {notice ? (
        <p className="notice case-tab__saved" role="status">
          {notice}
        </p>
      ) : null}
      {families.status === 'loading' ? (
        <p role="status" aria-busy="true">
          Loading families…
        </p>
      ) : families.status === 'failed' ? (
        <div className="notice notice--negative" role="alert">
          <p>The families cannot be shown: {families.error.message}</p>
          <button type="button" className="button button--secondary" onClick={reload}>
            Try again
          </button>
        </div>
      ) : families.value.length === 0 ? (
        <p className="case-tab__empty">No families yet. A family places the case’s reference profiles in a pedigree and searches the remains for the missing person.</p>
      ) : (
        <ul className="case-families__list" aria-label="Families of this case">
          {families.value.map((f) => (
            <li key={`${f.id}:${f.version}`}>
              <FamilyCard family={f} caseId={caseId} calls={calls} canEdit={canEdit} hitsHref={hitsHref} onEdit={edit} onDeleted={deleted} />
            </li>
          ))}
        </ul>
      )}
      {editing ? <FamilyEditing editing={editing} caseId={caseId} calls={calls} onSaved={saved} onCancel={() => setEditing(null)} /> : null}
    </section>
  );
}

function FamilyEditing({ editing, caseId, calls, onSaved, onCancel }: { editing: NonNullable<Editing>; caseId: string; calls: FamilyCalls; onSaved(family: Family): void; onCancel(): void }) {
  const { choices, family } = editing;
  if (choices.status === 'loading') {
    return (
      <p role="status" aria-busy="true">
        Loading the family form…
      </p>
    );
  }
  if (choices.status === 'failed') {
    return (
      <div className="notice notice--negative" role="alert">
        <p>The family form cannot be shown: {choices.error.message}</p>
        <button type="button" className="button button--secondary" onClick={onCancel}>
          Close
        </button>
      </div>
    );
  }
  return <FamilyFormPanel key={family?.id ?? 'new'} caseId={caseId} family={family} choices={choices.value} calls={calls} onSaved={onSaved} onCancel={onCancel} />;
}
