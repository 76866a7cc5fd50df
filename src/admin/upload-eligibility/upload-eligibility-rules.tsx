import { useEffect, useMemo, useState } from 'react';
import type { z } from 'zod';
import { can } from '../../../core/permissions';
import { UploadEligibilityRulesUpdate, type UploadEligibilityRules } from '../../../core/schemas/upload-eligibility';
import { toEditorError, type EditorError } from '../../../machines/recordEditor.machine';
import { useApi } from '../../app/api-provider';
import { routes } from '../../app/routes';
import { usePrincipal } from '../../app/use-principal';
import { RecordForm } from '../../ui/record/record-form';
import { SaveErrorNotice } from '../../ui/record/save-error-notice';
import { ServerFieldErrors, useServerFieldErrors } from '../analyses/server-field-errors';
import { uploadEligibilityApi, type UploadEligibilityCalls } from './upload-eligibility-api';
import { UploadIndexFields } from './upload-index-fields';
import '../search-rules/search-rules.css';
import './upload-eligibility.css';

const FORM_SCHEMA = UploadEligibilityRulesUpdate as unknown as z.ZodType<UploadEligibilityRulesUpdate, UploadEligibilityRulesUpdate>;

const inputOf = (rules: UploadEligibilityRules): UploadEligibilityRulesUpdate => ({
  indexes: rules.indexes.map(({ id, version, sampleTypes, minCoreLoci, maxAllelesPerLocus, rarityOneIn }) => ({ id, version, sampleTypes: [...sampleTypes], minCoreLoci, maxAllelesPerLocus, rarityOneIn })),
});

/** The user's unsaved values on the versions just read: after a conflict they save over what they were shown. */
const onVersionsOf = (draft: UploadEligibilityRulesUpdate, rules: UploadEligibilityRules): UploadEligibilityRulesUpdate => {
  const version = new Map(rules.indexes.map((i) => [i.id, i.version]));
  return { indexes: draft.indexes.map((i) => ({ ...i, version: version.get(i.id) ?? i.version })) };
};

interface PageState {
  rules: UploadEligibilityRules | null;
  /** The values of the last failed save, kept in the form. */
  draft: UploadEligibilityRulesUpdate | null;
  loadError: EditorError | null;
  saveError: EditorError | null;
  saving: boolean;
  saved: boolean;
  attempt: number;
}

export interface UploadEligibilityRulesViewProps {
  calls: UploadEligibilityCalls;
  mayEdit: boolean;
  cancelHref: string;
}

/**
 * The upper level's upload rules (issue 32), one section per index; editable by an administrator with scope All,
 * read-only for everyone else. A save sends every index with the version read: a change by someone else meanwhile
 * (409) keeps the user's values and offers the current version; a field the server refuses is marked.
 */
export function UploadEligibilityRulesView({ calls, mayEdit, cancelHref }: UploadEligibilityRulesViewProps) {
  const [state, setState] = useState<PageState>({ rules: null, draft: null, loadError: null, saveError: null, saving: false, saved: false, attempt: 0 });
  const server = useServerFieldErrors();
  useEffect(() => {
    let live = true;
    calls.get().then(
      (rules) => live && setState((s) => ({ ...s, rules, loadError: null })),
      (err: unknown) => live && setState((s) => ({ ...s, loadError: toEditorError(err) })),
    );
    return () => {
      live = false;
    };
  }, [calls, state.attempt]);
  const values = useMemo(() => (state.rules ? (state.draft ? onVersionsOf(state.draft, state.rules) : inputOf(state.rules)) : null), [state.rules, state.draft]);
  const save = (update: UploadEligibilityRulesUpdate) => {
    setState((s) => ({ ...s, saving: true, saved: false, saveError: null }));
    server.capture(calls.save(update)).then(
      (rules) => setState((s) => ({ ...s, rules, draft: null, saving: false, saved: true })),
      (err: unknown) => setState((s) => ({ ...s, draft: update, saving: false, saveError: toEditorError(err) })),
    );
  };
  // Reading again shows Loading until the current version is in, so no save can go out on the stale versions.
  const reload = () => setState((s) => ({ ...s, rules: null, saveError: null, attempt: s.attempt + 1 }));
  const names = state.rules?.indexes.map((i) => i.name) ?? [];

  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title">Upload eligibility</h1>
      <p className="search-rules__intro">
        Which approved profiles may be uploaded to the upper level, index by index (modelled on NDIS): the sample types each index takes, how many of
        the CODIS core loci a profile needs, the most alleles at any locus, and for forensic profiles a match probability under the rarity threshold. A
        sample type no index takes stays at this laboratory.
      </p>
      {state.loadError ? (
        <div className="notice notice--negative" role="alert">
          <p>{state.loadError.message}</p>
          <button type="button" className="button button--secondary" onClick={reload}>
            Try again
          </button>
        </div>
      ) : !state.rules || !values ? (
        <p role="status" aria-busy="true">
          Loading…
        </p>
      ) : (
        <>
          {state.saveError ? <SaveErrorNotice error={state.saveError} onReload={reload} /> : null}
          {state.saved ? (
            <p className="notice" role="status">
              Saved: the upload rules are in force.
            </p>
          ) : null}
          <RecordForm schema={FORM_SCHEMA} values={values} onSubmit={save} busy={state.saving} cancelHref={cancelHref} readOnly={!mayEdit}>
            <ServerFieldErrors errors={server.errors} />
            {state.rules.indexes.map((index, at) => (
              <UploadIndexFields key={index.id} at={at} index={index} names={names} coreCount={state.rules!.coreLoci.length} />
            ))}
          </RecordForm>
        </>
      )}
    </section>
  );
}

/** UploadEligibilityRules: everyone reads the rules; only an administrator with scope All changes them (Settings Edit). */
export function UploadEligibilityRulesPage({ orgId }: { orgId: string }) {
  const api = useApi();
  const principal = usePrincipal();
  const calls = useMemo(() => uploadEligibilityApi(api), [api]);
  return <UploadEligibilityRulesView calls={calls} mayEdit={can(principal, 'Settings', 'Edit')} cancelHref={routes.Dashboard.href({ orgId })} />;
}
