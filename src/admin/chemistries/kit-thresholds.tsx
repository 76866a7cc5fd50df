import { useEffect, useId, useMemo, useState } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { Rfu, type KitAlleles } from '../../../core/schemas/kit-bins';
import { toEditorError, type EditorError } from '../../../machines/recordEditor.machine';
import { TextField } from '../../ui/form/text-field';
import { SaveErrorNotice } from '../../ui/record/save-error-notice';
import type { chemistryApi } from './chemistry-api';

/** A threshold cell as typed: empty is none, anything else must be a positive number of RFU (the server's rule). */
const RfuCell = z
  .string()
  .trim()
  .transform((text) => (text === '' ? null : Number(text)))
  .pipe(Rfu.nullable());
const ThresholdsForm = z.object({ kit: RfuCell, dyes: z.record(z.string(), RfuCell) });
type FormInput = z.input<typeof ThresholdsForm>;
type FormOutput = z.output<typeof ThresholdsForm>;

/** The kit's dyes in its marker order (then any dye only a stored threshold names), each with its markers. */
function dyesOf(kit: KitAlleles): { dye: string; markers: string[] }[] {
  const byDye = new Map<string, string[]>();
  for (const m of kit.markers) byDye.set(m.dye, [...(byDye.get(m.dye) ?? []), m.marker]);
  for (const dye of Object.keys(kit.thresholds.dyes)) if (!byDye.has(dye)) byDye.set(dye, []);
  return [...byDye].map(([dye, markers]) => ({ dye, markers }));
}

const formValues = (kit: KitAlleles): FormInput => ({
  kit: kit.thresholds.kit === null ? '' : String(kit.thresholds.kit),
  dyes: Object.fromEntries(dyesOf(kit).map(({ dye }) => [dye, kit.thresholds.dyes[dye] === undefined ? '' : String(kit.thresholds.dyes[dye])])),
});

const capitalized = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

interface KitThresholdsProps {
  chemistryId: string;
  chemistryName: string;
  calls: Pick<ReturnType<typeof chemistryApi>, 'alleles' | 'setThresholds'>;
  mayEdit: boolean;
  /** The kit's version moved on (a threshold change is a change of the kit): its form reads it again. */
  onSaved(): void;
}

/**
 * The laboratory's analytical thresholds of a kit (issue 31): one for the whole kit and one per dye, which takes
 * precedence for the dye's markers. A peak height under its threshold is kept and flagged, on import and on the
 * profile. Saved with the kit's version; the saved values are read back into the form.
 */
export function KitThresholds({ chemistryId, chemistryName, calls, mayEdit, onSaved }: KitThresholdsProps) {
  const titleId = useId();
  const [kit, setKit] = useState<KitAlleles | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<EditorError | null>(null);
  const [saved, setSaved] = useState(false);
  const form = useForm<FormInput, unknown, FormOutput>({ resolver: zodResolver(ThresholdsForm), defaultValues: { kit: '', dyes: {} } });
  const dyes = useMemo(() => (kit ? dyesOf(kit) : []), [kit]);

  const show = (read: KitAlleles) => {
    setKit(read);
    form.reset(formValues(read));
  };
  const load = () =>
    calls.alleles(chemistryId).then(show, (err: unknown) => {
      setLoadError(toEditorError(err).message);
    });
  useEffect(() => {
    void load();
  }, [chemistryId]);

  const save = async (values: FormOutput) => {
    if (!kit) return;
    setSaving(true);
    setError(null);
    setSaved(false);
    try {
      const dyeValues = Object.fromEntries(Object.entries(values.dyes).filter((e): e is [string, number] => e[1] !== null));
      show(await calls.setThresholds(chemistryId, { kit: values.kit, dyes: dyeValues, version: kit.version }));
      setSaved(true);
      onSaved();
    } catch (err) {
      setError(toEditorError(err));
    } finally {
      setSaving(false);
    }
  };

  return (
    <section className="page kit-thresholds" aria-labelledby={titleId}>
      <h2 id={titleId}>Analytical thresholds</h2>
      <p className="field__hint">
        Peak heights (RFU) under the threshold are kept and flagged, on import and on the profile. A dye’s threshold applies to its markers, the kit’s to the rest; leave a field empty
        for none.
      </p>
      {loadError ? (
        <p className="notice notice--negative" role="alert">
          The thresholds of {chemistryName} could not be read: {loadError}
        </p>
      ) : !kit ? (
        <p role="status" aria-busy="true">
          Loading…
        </p>
      ) : (
        <FormProvider {...form}>
          {error ? <SaveErrorNotice error={error} onReload={() => void load().then(() => setError(null))} /> : null}
          <form className="form" noValidate onSubmit={form.handleSubmit(save)} aria-busy={saving} aria-labelledby={titleId}>
            <fieldset className="form__fields" disabled={!mayEdit || saving}>
              <TextField name="kit" label="Whole kit (RFU)" />
              {dyes.map(({ dye, markers }) => (
                <TextField key={dye} name={`dyes.${dye}`} label={`${capitalized(dye)} dye (RFU)`} hint={markers.length > 0 ? markers.join(', ') : 'No marker of the kit is in this dye'} />
              ))}
            </fieldset>
            {mayEdit ? (
              <div className="form__actions">
                <button type="submit" className="button button--primary" disabled={saving}>
                  {saving ? 'Saving…' : 'Save thresholds'}
                </button>
              </div>
            ) : null}
            {saved ? <p role="status">Saved: the analytical thresholds of {chemistryName}.</p> : null}
          </form>
        </FormProvider>
      )}
    </section>
  );
}
