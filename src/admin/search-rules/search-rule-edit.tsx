import { useEffect, useMemo, useState } from 'react';
import type { z } from 'zod';
import { can } from '../../../core/permissions';
import { SearchRuleInput, type SearchRule, type SearchRuleFormOptions } from '../../../core/schemas/search-rules';
import { useApi } from '../../app/api-provider';
import { routes } from '../../app/routes';
import { usePrincipal } from '../../app/use-principal';
import { EditorPage } from '../../ui/record/editor-page';
import { RecordForm } from '../../ui/record/record-form';
import { useRecordEditor } from '../../ui/record/use-record-editor';
import { ServerFieldErrors, useServerFieldErrors } from '../analyses/server-field-errors';
import { SearchRuleFields } from './search-rule-fields';
import { searchRulesApi, type SearchRulesCalls } from './search-rules-api';
import './search-rules.css';

// The form holds every field (defaults filled in), so what it validates is what it sends.
const FORM_SCHEMA = SearchRuleInput as unknown as z.ZodType<SearchRuleInput, SearchRuleInput>;

const BLANK: SearchRuleInput = {
  name: '',
  active: true,
  trigger: 'approval',
  searchingSampleTypes: [],
  searchedSampleTypes: [],
  analysisId: '',
  stringency: null,
  minMarkers: 8,
  maxMismatches: 0,
  thresholdKind: 'likelihood-ratio',
  threshold: null,
  populationIds: [],
};

const inputOf = (r: SearchRule | SearchRuleInput): SearchRuleInput => ({
  name: r.name,
  active: r.active,
  trigger: r.trigger,
  searchingSampleTypes: [...r.searchingSampleTypes],
  searchedSampleTypes: [...r.searchedSampleTypes],
  analysisId: r.analysisId,
  stringency: r.stringency,
  minMarkers: r.minMarkers,
  maxMismatches: r.maxMismatches,
  thresholdKind: r.thresholdKind,
  threshold: r.threshold,
  populationIds: [...r.populationIds],
});

/** The analyses and populations the form offers, loaded once. */
function useFormOptions(calls: Pick<SearchRulesCalls, 'formOptions'>) {
  const [state, setState] = useState<{ options: SearchRuleFormOptions | null; failed: boolean; attempt: number }>({ options: null, failed: false, attempt: 0 });
  useEffect(() => {
    let live = true;
    calls.formOptions().then(
      (options) => live && setState((s) => ({ ...s, options, failed: false })),
      () => live && setState((s) => ({ ...s, failed: true })),
    );
    return () => {
      live = false;
    };
  }, [calls, state.attempt]);
  return { ...state, retry: () => setState((s) => ({ ...s, failed: false, attempt: s.attempt + 1 })) };
}

export interface SearchRuleEditViewProps {
  orgId: string;
  id: string;
  calls: Pick<SearchRulesCalls, 'get' | 'formOptions' | 'add' | 'update' | 'remove'>;
  mayAdd: boolean;
  mayEdit: boolean;
  mayDelete: boolean;
}

/** A search rule's form, given its calls and what the user may do (the route supplies both; stories fake them). */
export function SearchRuleEditView({ orgId, id, calls, mayAdd, mayEdit, mayDelete }: SearchRuleEditViewProps) {
  const server = useServerFieldErrors();
  const options = useFormOptions(calls);
  const editor = useRecordEditor<SearchRule, SearchRuleInput>(id, {
    load: calls.get,
    save: ({ id: existing, record, values }) => server.capture(existing && record ? calls.update(existing, { ...values, version: record.version }) : calls.add(values)),
    remove: ({ id: existing }) => calls.remove(existing),
  });
  const tableHref = routes.SearchRules.href({ orgId });
  const values = useMemo((): SearchRuleInput => {
    const source = editor.draft ?? editor.record;
    return source ? inputOf(source) : BLANK;
  }, [editor.record]);
  const savedPopulations = useMemo(
    () => new Map((editor.record?.populationIds ?? []).map((pid, i) => [pid, editor.record!.populationNames[i] ?? pid])),
    [editor.record],
  );
  const writable = editor.isNew ? mayAdd : mayEdit;
  return (
    <EditorPage title={editor.isNew ? 'New search rule' : 'Search rule'} editor={editor} doneHref={tableHref} deleteWhat={(r) => `search rule "${r.name}"`}>
      {options.options ? (
        <RecordForm
          schema={FORM_SCHEMA}
          values={values}
          onSubmit={editor.save}
          busy={editor.status === 'saving'}
          cancelHref={tableHref}
          readOnly={!writable}
          onDelete={!editor.isNew && mayDelete ? editor.askDelete : undefined}
        >
          <ServerFieldErrors errors={server.errors} />
          <SearchRuleFields options={options.options} savedPopulations={savedPopulations} />
        </RecordForm>
      ) : options.failed ? (
        <div className="notice notice--negative" role="alert">
          <p>The analyses and populations could not be loaded.</p>
          <button type="button" className="button button--secondary" onClick={options.retry}>
            Try again
          </button>
        </div>
      ) : (
        <p role="status" aria-busy="true">
          Loading…
        </p>
      )}
    </EditorPage>
  );
}

/** SearchRulesEdit: add or change a search rule; read-only without SearchRules Edit, deletable with SearchRules Delete. */
export function SearchRuleEdit({ orgId, id }: { orgId: string; id: string }) {
  const api = useApi();
  const principal = usePrincipal();
  const calls = useMemo(() => searchRulesApi(api), [api]);
  return (
    <SearchRuleEditView
      orgId={orgId}
      id={id}
      calls={calls}
      mayAdd={can(principal, 'SearchRules', 'Add')}
      mayEdit={can(principal, 'SearchRules', 'Edit')}
      mayDelete={can(principal, 'SearchRules', 'Delete')}
    />
  );
}
