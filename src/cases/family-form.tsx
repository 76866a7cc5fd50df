import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useId, useState } from 'react';
import { FormProvider, get, useForm, useFormContext, useWatch, type FieldError } from 'react-hook-form';
import { z } from 'zod';
import type { Analysis } from '../../core/schemas/analyses';
import { FamilyInput, type Family } from '../../core/schemas/families';
import { REQUIRED } from '../../core/schemas/named-record';
import { toEditorError, type EditorError } from '../../machines/recordEditor.machine';
import { MultiChoiceField } from '../admin/search-rules/choice-fields';
import { PedigreeDiagram } from '../analyses/pedigree-diagram';
import { serverFieldErrors, type ServerFieldError } from '../ui/form/server-field-errors';
import { SelectField } from '../ui/form/select-field';
import { TextField } from '../ui/form/text-field';
import { SaveErrorNotice } from '../ui/record/save-error-notice';
import type { FamilyCalls, FamilyChoices } from './families-api';

/** The form's rules: the server's (core/schemas/families), with what an empty choice means in words. */
const FamilyForm = FamilyInput.extend({
  analysisId: z.string().min(1, REQUIRED),
  relatives: z.array(z.object({ role: z.string(), profileId: z.string().min(1, REQUIRED) })).min(1, 'Choose the family shape first'),
});
type FamilyForm = z.infer<typeof FamilyForm>;

/** The form field a 400's detail names: `/relatives/1/profileId` → `relatives.1.profileId`; a population's error shows on the list. */
export function familyFieldOf(path: string): string {
  const field = path.replace(/^\//, '').replaceAll('/', '.');
  return field.startsWith('populationIds') ? 'populationIds' : field;
}

function valuesOf(family: Family | null): FamilyForm {
  if (!family) return { name: '', analysisId: '', relatives: [], populationIds: [], threshold: Number.NaN };
  const { name, analysisId, relatives, populationIds, threshold } = family;
  return { name, analysisId, relatives: relatives.map(({ role, profileId }) => ({ role, profileId })), populationIds, threshold };
}

/** The error of a list field: the list's own (zod on the array, or the server's). */
function useListError(name: string): string | undefined {
  const { formState } = useFormContext();
  const error = get(formState.errors, name) as (FieldError & { root?: FieldError }) | undefined;
  return error?.message ?? error?.root?.message;
}

/**
 * When the family shape changes: its analysis is read, a relative row stands for each of its roles but the missing
 * person (keeping a profile already placed in that role), and the threshold follows the analysis unless typed.
 */
function useFamilyShape(calls: FamilyCalls, family: Family | null) {
  const { setValue, getValues, getFieldState } = useFormContext<FamilyForm>();
  const analysisId = useWatch<FamilyForm, 'analysisId'>({ name: 'analysisId' });
  const [analysis, setAnalysis] = useState<Analysis | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    setAnalysis(null);
    setProblem(null);
    if (!analysisId) return;
    let current = true;
    calls.analysis(analysisId).then(
      (read) => {
        if (!current) return;
        setAnalysis(read);
        const placed = getValues('relatives');
        const target = read.pedigree?.target;
        const relatives = read.roles.filter((role) => role !== target).map((role) => ({ role, profileId: placed.find((r) => r.role === role)?.profileId ?? '' }));
        setValue('relatives', relatives);
        const kept = family !== null && family.analysisId === analysisId;
        if (!kept && !getFieldState('threshold').isDirty && read.threshold !== null) setValue('threshold', read.threshold);
      },
      (err: unknown) => current && setProblem(toEditorError(err).message),
    );
    return () => {
      current = false;
    };
  }, [analysisId]);
  return { analysis, problem };
}

function RelativeFields({ choices, calls, family }: { choices: FamilyChoices; calls: FamilyCalls; family: Family | null }) {
  const { analysis, problem } = useFamilyShape(calls, family);
  const relatives = useWatch<FamilyForm, 'relatives'>({ name: 'relatives' });
  const error = useListError('relatives');
  const profileOptions = choices.profiles.map((p) => ({ value: p.id, label: `${p.profileId} (${p.status})` }));
  return (
    <fieldset className="family-form__relatives">
      <legend>Relatives</legend>
      {problem ? (
        <p className="notice notice--negative" role="alert">
          The family shape cannot be read: {problem}
        </p>
      ) : null}
      {analysis?.pedigree ? (
        <PedigreeDiagram persons={analysis.pedigree.persons} typed={analysis.roles} target={analysis.pedigree.target} label={`Pedigree of ${analysis.name}`} />
      ) : null}
      {relatives.length === 0 ? <p className="field__hint">Choose the family shape: each relative it types is placed here.</p> : null}
      {relatives.map((r, i) => (
        <SelectField key={r.role} name={`relatives.${i}.profileId`} label={r.role} required options={profileOptions} placeholder="Choose a profile of this case" />
      ))}
      {profileOptions.length === 0 ? <p className="field__hint">This case has no autosomal profile yet.</p> : null}
      {error ? <p className="field__error">{error}</p> : null}
    </fieldset>
  );
}

/** The populations a search may weigh in: autosomal, with statistics, never the synthetic demo population. */
function PopulationChoices({ choices }: { choices: FamilyChoices }) {
  const none = 'No autosomal population with statistics is shared with this organization.';
  const hint = choices.populations.length === 0 ? none : 'A remains profile becomes a hit only when it reaches the threshold in every one.';
  return <MultiChoiceField name="populationIds" legend="Populations" required hint={hint} choices={choices.populations.map((p) => ({ value: p.id, label: p.name }))} />;
}

interface FamilyFormProps {
  caseId: string;
  /** null: a new family. */
  family: Family | null;
  choices: FamilyChoices;
  calls: FamilyCalls;
  onSaved(family: Family): void;
  onCancel(): void;
}

/**
 * Adds or changes a family (issue 16): a name, the family shape (a pedigree analysis of the Missing persons group),
 * a profile of the case for each relative, the populations and the LR threshold. A refusal is shown at the fields it
 * names and as a message; the form keeps everything entered.
 */
export function FamilyFormPanel({ caseId, family, choices, calls, onSaved, onCancel }: FamilyFormProps) {
  const form = useForm<FamilyForm>({ resolver: zodResolver(FamilyForm), defaultValues: valuesOf(family), mode: 'onSubmit' });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<EditorError | null>(null);
  const titleId = useId();
  const showServerErrors = (details: readonly ServerFieldError[]) => {
    for (const d of details) form.setError(familyFieldOf(d.path) as keyof FamilyForm, { type: 'server', message: d.message });
  };
  const save = async (values: FamilyForm) => {
    setBusy(true);
    setError(null);
    try {
      onSaved(family ? await calls.update(family.id, { ...values, version: family.version }) : await calls.add(caseId, values));
    } catch (err) {
      setError(toEditorError(err));
      showServerErrors(serverFieldErrors(err));
    } finally {
      setBusy(false);
    }
  };
  const analysisOptions = choices.analyses.map((a) => ({ value: a.id, label: a.label ? `${a.name} — ${a.label}` : a.name }));
  return (
    <section className="family-form" aria-labelledby={titleId}>
      <h3 id={titleId}>{family ? `Change ${family.name}` : 'Add a family'}</h3>
      {error ? <SaveErrorNotice error={error} /> : null}
      <FormProvider {...form}>
        <form className="form" noValidate onSubmit={form.handleSubmit(save)} aria-busy={busy}>
          <fieldset className="form__fields" disabled={busy}>
            <TextField name="name" label="Name" required />
            <SelectField
              name="analysisId"
              label="Family shape"
              required
              options={analysisOptions}
              placeholder="Choose a pedigree analysis"
              hint={analysisOptions.length === 0 ? 'The Missing persons analysis group has no active pedigree analysis.' : 'The pedigree analyses of the Missing persons group.'}
            />
            <RelativeFields choices={choices} calls={calls} family={family} />
            <PopulationChoices choices={choices} />
            <TextField name="threshold" label="Threshold (LR)" type="number" required hint="The LR a remains profile must reach in every population to become a pending hit." />
          </fieldset>
          <div className="form__actions">
            <button type="submit" className="button button--primary" disabled={busy}>
              {busy ? 'Saving…' : family ? 'Save family' : 'Add family'}
            </button>
            <button type="button" className="button button--secondary" onClick={onCancel} disabled={busy}>
              Cancel
            </button>
          </div>
        </form>
      </FormProvider>
    </section>
  );
}
