import { useMemo, useState } from 'react';
import { CASE_STATUSES, CaseSettingsInput, type Case } from '../../core/schemas/cases';
import { toEditorError, type EditorError } from '../../machines/recordEditor.machine';
import { SaveErrorNotice } from '../ui/record/save-error-notice';
import { SelectField } from '../ui/form/select-field';
import { TextareaField } from '../ui/form/textarea-field';
import { RecordForm } from '../ui/record/record-form';
import type { CaseCalls } from './cases-api';

/** What the settings form edits; the version is the case's own. */
const SettingsForm = CaseSettingsInput.omit({ version: true });
type SettingsForm = Omit<CaseSettingsInput, 'version'>;

const STATUS_OPTIONS = CASE_STATUSES.map((s) => ({ value: s, label: s }));

interface CaseSettingsTabProps {
  record: Case;
  calls: Pick<CaseCalls, 'changeSettings'>;
  /** The case as saved, for the header above the tabs. */
  onSaved(record: Case): void;
  /** Reads the case again after someone else changed it. */
  onReload(): void;
  cancelHref: string;
}

/**
 * The Settings tab (spec 2.8, Cases ChangeSettings): open or closed, and notes. A stale save (409)
 * keeps what the user typed and offers the current version, as every edit form does.
 */
export function CaseSettingsTab({ record, calls, onSaved, onReload, cancelHref }: CaseSettingsTabProps) {
  const [draft, setDraft] = useState<SettingsForm | null>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ saved: true } | { error: EditorError } | null>(null);
  const values = useMemo(() => draft ?? { status: record.status, notes: record.notes }, [record]);
  const save = async (form: SettingsForm) => {
    setDraft(form);
    setBusy(true);
    setOutcome(null);
    try {
      const saved = await calls.changeSettings(record.id, { ...form, version: record.version });
      setDraft(null);
      onSaved(saved);
      setOutcome({ saved: true });
    } catch (err) {
      setOutcome({ error: toEditorError(err) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <h2>Settings</h2>
      {outcome && 'saved' in outcome ? (
        <p className="notice case-tab__saved" role="status">
          Settings saved.
        </p>
      ) : null}
      {outcome && 'error' in outcome ? <SaveErrorNotice error={outcome.error} onReload={onReload} /> : null}
      <RecordForm schema={SettingsForm} values={values} onSubmit={save} busy={busy} cancelHref={cancelHref} submitLabel="Save settings">
        <SelectField name="status" label="Status" required options={STATUS_OPTIONS} hint="A closed case keeps its records but takes no new profiles." />
        <TextareaField name="notes" label="Notes" rows={6} />
      </RecordForm>
    </>
  );
}
