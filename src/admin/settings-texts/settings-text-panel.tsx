import { useEffect, useId, useMemo, useState, type FormEvent } from 'react';
import { useMachine } from '@xstate/react';
import { fromPromise } from 'xstate';
import { can } from '../../../core/permissions';
import type { SettingsText, SettingsTextId } from '../../../core/schemas/settings-texts';
import { recordEditorMachine, type SaveRequest } from '../../../machines/recordEditor.machine';
import { SaveErrorNotice } from '../../ui/record/save-error-notice';
import { useApi } from '../../app/api-provider';
import { usePrincipal } from '../../app/use-principal';
import { RichText } from './rich-text';
import { RichTextEditor } from './rich-text-editor';
import { settingsTextsApi } from './settings-texts-api';
import './settings-texts.css';

interface PanelProps {
  id: SettingsTextId;
  /** What the text is, for the editor's label: "About us". */
  label: string;
}

/**
 * One editable settings text (spec 2.6): everybody reads it; an administrator with scope All
 * (Settings Edit) gets Edit. Loading, saving and a stale save (409) run on machines/recordEditor,
 * keyed by the text's id; after a save the panel starts afresh on the stored (sanitized) text.
 */
export function SettingsTextPanel(props: PanelProps) {
  const [generation, setGeneration] = useState(0);
  return <SettingsTextEditorPanel key={generation} {...props} onSaved={() => setGeneration((g) => g + 1)} />;
}

function SettingsTextEditorPanel({ id, label, onSaved }: PanelProps & { onSaved(): void }) {
  const api = useApi();
  const principal = usePrincipal();
  const labelId = useId();
  const logic = useMemo(() => {
    const calls = settingsTextsApi(api);
    return recordEditorMachine.provide({
      actors: {
        load: fromPromise<unknown, { id: string }>(() => calls.get(id)),
        save: fromPromise<unknown, SaveRequest>(({ input }) =>
          calls.save(id, { text: (input.values as { text: string }).text, version: (input.record as SettingsText).version }),
        ),
      },
    });
  }, [api, id]);
  const [snapshot, send] = useMachine(logic, { input: { id } });
  const status = snapshot.value;
  const record = snapshot.context.record as SettingsText | null;
  const error = snapshot.context.error;
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState<string | null>(null);
  const mayEdit = can(principal, 'Settings', 'Edit');

  useEffect(() => {
    if (status === 'saved') onSaved();
  }, [status]);

  if (!record) {
    return status === 'loadFailed' ? (
      <div className="notice notice--negative" role="alert">
        <p>{error?.message}</p>
        <button type="button" className="button button--secondary" onClick={() => send({ type: 'retry' })}>
          Try again
        </button>
      </div>
    ) : (
      <p role="status" aria-busy="true">
        Loading…
      </p>
    );
  }

  const save = (event: FormEvent) => {
    event.preventDefault();
    send({ type: 'save', values: { text: draft ?? record.text } });
  };
  const cancel = () => {
    setEditing(false);
    setDraft(null);
  };
  const saving = status === 'saving';

  return (
    <div className="settings-text">
      {error ? <SaveErrorNotice error={error} onReload={() => send({ type: 'reload' })} kept="editor" /> : null}
      {editing ? (
        <form className="form" onSubmit={save} aria-busy={saving}>
          <p className="field__label" id={labelId}>
            Text of {label}
          </p>
          <p className="field__hint" id={`${labelId}-hint`}>
            Use the toolbar, or Ctrl+B and Ctrl+I. Pasted text arrives without its formatting.
          </p>
          <RichTextEditor labelId={labelId} hintId={`${labelId}-hint`} initialHtml={draft ?? record.text} onChange={setDraft} autoFocus />
          <div className="settings-text__actions">
            <button type="submit" className="button button--primary" disabled={saving}>
              {saving ? 'Saving…' : 'Save'}
            </button>
            <button type="button" className="button button--secondary" disabled={saving} onClick={cancel}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <>
          {record.text.trim() ? <RichText html={record.text} /> : <p className="settings-text__empty">Nothing has been written here yet.</p>}
          {mayEdit ? (
            <div className="settings-text__actions">
              <button type="button" className="button button--secondary" onClick={() => setEditing(true)}>
                Edit text
              </button>
            </div>
          ) : null}
        </>
      )}
    </div>
  );
}
