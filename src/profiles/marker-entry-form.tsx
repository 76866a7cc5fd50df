import { useMemo, useRef, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { validateMarkerAlleles } from '../../core/alleles';
import { MIXTURE_SAMPLE_TYPES, type ProfileWithMarkers } from '../../core/schemas/profiles';
import { toEditorError, type EditorError } from '../../machines/recordEditor.machine';
import { useApi } from '../app/api-provider';
import { routes } from '../app/routes';
import { AlleleField } from './allele-field';
import { parseAlleleText } from './allele-text';
import { LoadState } from './load-state';
import { markerRows, type MarkerRow } from './marker-rows';
import { profilesApi, type ProfileCalls, type ProfileFormOptions } from './profiles-api';
import { readRunMarker, runText, type RunText } from './replicate-entry';
import { heightsFieldId, ReplicateFields } from './replicate-fields';
import { indexInPath, serverFieldErrors } from '../ui/form/server-field-errors';
import { useLoaded } from './use-loaded';
import './profiles.css';

type Texts = Record<string, string>;

/** The marker entry form's route (spec 2.8 `…/edit/markers`): reads the profile and the chemistries, then the form. */
export function MarkerEntryPage({ orgId, caseId, sampleid, title: routeTitle }: { orgId: string; caseId: string; sampleid: string; title: string }) {
  const api = useApi();
  const calls = useMemo(() => profilesApi(api), [api]);
  const loaded = useLoaded(sampleid, async () => {
    const [profile, options] = await Promise.all([calls.get(sampleid), calls.formOptions()]);
    return { profile, options };
  });
  // The fields the user changed survive loading the current version after a conflict.
  const edits = useRef<Texts>({});
  const title = loaded.status === 'loaded' ? `Markers of ${loaded.value.profile.profileId}` : routeTitle;
  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title">{title}</h1>
      <LoadState loaded={loaded} missing="This profile no longer exists.">
        {({ profile, options }) => (
          <MarkerEntryForm
            key={profile.version}
            orgId={orgId}
            caseId={caseId}
            profile={profile}
            options={options}
            calls={calls}
            edits={edits.current}
            onReload={(changed) => {
              edits.current = changed;
              loaded.reload();
            }}
          />
        )}
      </LoadState>
    </section>
  );
}

interface MarkerEntryFormProps {
  orgId: string;
  caseId: string;
  profile: ProfileWithMarkers;
  options: ProfileFormOptions;
  calls: ProfileCalls;
  /** Fields changed before a reload, laid over the stored values. */
  edits: Texts;
  /** Reads the profile again, keeping the fields changed so far. */
  onReload(edits: Texts): void;
}

/**
 * One row per marker of the chemistry, alleles typed as text and checked with the allele rules of
 * core/alleles (GENETICS.md) as each field is left; the server's field errors show beside the
 * marker they name. Empty rows are markers not typed.
 */
function MarkerEntryForm({ orgId, caseId, profile, options, calls, edits, onReload }: MarkerEntryFormProps) {
  const [, navigate] = useLocation();
  const rows = useMemo(() => markerRows(profile.chemistryId, profile.kind, profile.markerValues, options.chemistries), [profile, options]);
  const stored = useMemo<Texts>(() => Object.fromEntries(rows.map((r) => [r.markerId, r.text])), [rows]);
  const [texts, setTexts] = useState<Texts>(() => ({ ...stored, ...edits }));
  const [checked, setChecked] = useState<ReadonlySet<string>>(new Set());
  const [serverErrors, setServerErrors] = useState<Record<string, string[]>>({});
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<EditorError | null>(null);
  const mixture = MIXTURE_SAMPLE_TYPES.has(profile.sampleType);
  // Issue 31: the forensic sample types keep peak heights per replicate; a reference has none.
  const [runs, setRuns] = useState<RunText[]>(() => profile.replicates.map((r) => runText(r, (id) => parseAlleleText(stored[id] ?? ''))));
  const [runsChecked, setRunsChecked] = useState<ReadonlySet<string>>(new Set());
  const [runServerErrors, setRunServerErrors] = useState<Record<string, string[]>>({});
  const pending = profile.status === 'pending';
  const viewHref = routes.ProfilesView.href({ orgId, caseId, sampleid: profile.id });

  const ruleErrors = (row: MarkerRow): string[] => {
    const alleles = parseAlleleText(texts[row.markerId] ?? '');
    return alleles.length === 0 ? [] : validateMarkerAlleles(alleles, row, { mixture });
  };
  const messagesOf = (row: MarkerRow) => [...(checked.has(row.markerId) ? ruleErrors(row) : []), ...(serverErrors[row.markerId] ?? [])];
  const runMarker = (r: number, markerId: string) => readRunMarker(texts[markerId] ?? '', runs[r]?.heights[markerId] ?? '', runs[r]?.sizes[markerId] ?? '');
  const runMessagesOf = (r: number, markerId: string) => [...(runsChecked.has(`${r} ${markerId}`) ? runMarker(r, markerId).problems : []), ...(runServerErrors[`${r} ${markerId}`] ?? [])];
  const emptyRun = (r: number) => rows.every((row) => runMarker(r, row.markerId).peaks.length === 0);
  const runMessages = (r: number) => (runsChecked.has(`${r}`) && emptyRun(r) ? [`Replicate ${r + 1} has no peak heights: type them, or remove it`] : []);
  const heightRows = rows.filter((row) => parseAlleleText(texts[row.markerId] ?? '').length > 0 || runs.some((run) => (run.heights[row.markerId] ?? '').trim() !== ''));

  const save = async () => {
    setChecked(new Set(rows.map((r) => r.markerId)));
    const invalid = rows.find((r) => ruleErrors(r).length > 0);
    if (invalid) {
      document.getElementById(fieldId(invalid))?.focus();
      return;
    }
    if (mixture) {
      setRunsChecked(new Set(runs.flatMap((_, r) => [`${r}`, ...rows.map((row) => `${r} ${row.markerId}`)])));
      const badRun = runs.findIndex((_, r) => emptyRun(r) || rows.some((row) => runMarker(r, row.markerId).problems.length > 0));
      if (badRun >= 0) {
        const row = heightRows.find((x) => runMarker(badRun, x.markerId).problems.length > 0) ?? heightRows[0];
        if (row) document.getElementById(heightsFieldId(badRun, row.markerId))?.focus();
        return;
      }
    }
    const sent = rows.map((r) => ({ markerId: r.markerId, alleles: parseAlleleText(texts[r.markerId] ?? '') })).filter((m) => m.alleles.length > 0);
    const replicates = runs.map((run, r) => ({
      name: run.name.trim(),
      markers: rows.map((row) => ({ markerId: row.markerId, peaks: runMarker(r, row.markerId).peaks })).filter((m) => m.peaks.length > 0),
    }));
    setSaving(true);
    setError(null);
    try {
      await calls.updateMarkers(profile.id, { markerValues: sent, ...(mixture ? { replicates } : {}), version: profile.version });
      navigate(viewHref);
    } catch (err) {
      setSaving(false);
      setError(toEditorError(err));
      const byMarker: Record<string, string[]> = {};
      for (const e of serverFieldErrors(err)) {
        const index = indexInPath(e.path, '/markerValues/');
        const markerId = index === null ? undefined : sent[index]?.markerId;
        if (markerId) byMarker[markerId] = [...(byMarker[markerId] ?? []), e.message];
      }
      setServerErrors(byMarker);
      const byRun: Record<string, string[]> = {};
      for (const e of serverFieldErrors(err)) {
        const r = indexInPath(e.path, '/replicates/');
        const i = r === null ? null : indexInPath(e.path, `/replicates/${r}/markers/`);
        const markerId = r === null || i === null ? undefined : replicates[r]?.markers[i]?.markerId;
        if (markerId) byRun[`${r} ${markerId}`] = [...(byRun[`${r} ${markerId}`] ?? []), e.message];
      }
      setRunServerErrors(byRun);
    }
  };

  const field = (row: MarkerRow) => {
    const id = fieldId(row);
    const messages = messagesOf(row);
    return (
      <AlleleField
        key={row.markerId}
        id={id}
        marker={row.name}
        value={texts[row.markerId] ?? ''}
        messages={messages}
        onChange={(value) => {
          setTexts((t) => ({ ...t, [row.markerId]: value }));
          setServerErrors(({ [row.markerId]: _, ...rest }) => rest);
        }}
        onBlur={() => setChecked((c) => new Set(c).add(row.markerId))}
      />
    );
  };

  const kit = rows.filter((r) => r.inKit);
  const others = rows.filter((r) => !r.inKit);
  return (
    <form
      className="form marker-entry"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <p className="field__hint">
        {profile.chemistryName}, {profile.sampleType}. Type each marker’s alleles separated by commas or spaces (15, 16 · X, Y · 9.3);
        {mixture ? ' a mixture may carry up to 4 alleles per marker.' : ' one allele for a homozygote, two for a heterozygote.'} Leave a
        marker empty when it was not typed.
      </p>
      {!pending ? (
        <p className="notice notice--warning" role="status">
          This profile is {profile.status}; reset it to pending before changing its markers.
        </p>
      ) : null}
      {error ? (
        <div className="notice notice--negative" role="alert">
          <p>{error.message}</p>
          {error.status === 409 ? (
            <button type="button" className="button button--secondary" onClick={() => onReload(changedFields(texts, stored))}>
              Load the current version
            </button>
          ) : null}
        </div>
      ) : null}
      <fieldset className="marker-entry__group" disabled={saving || !pending}>
        <legend>{profile.chemistryName}</legend>
        {kit.length > 0 ? kit.map(field) : <p>The chemistry {profile.chemistryName} lists no markers.</p>}
      </fieldset>
      {others.length > 0 ? (
        <fieldset className="marker-entry__group" disabled={saving || !pending}>
          <legend>Outside {profile.chemistryName}</legend>
          {others.map(field)}
        </fieldset>
      ) : null}
      {mixture ? (
        <ReplicateFields
          rows={heightRows}
          runs={runs}
          messagesOf={runMessagesOf}
          runMessages={runMessages}
          disabled={saving || !pending}
          onChange={(next) => {
            setRuns(next);
            setRunServerErrors({});
          }}
          onBlur={(r, markerId) => setRunsChecked((c) => new Set(c).add(`${r} ${markerId}`))}
        />
      ) : null}
      <div className="form__actions">
        {pending ? (
          <button type="submit" className="button button--primary" disabled={saving}>
            {saving ? 'Saving…' : 'Save markers'}
          </button>
        ) : null}
        <Link href={viewHref} className="button button--secondary">
          {pending ? 'Cancel' : 'Back'}
        </Link>
      </div>
    </form>
  );
}

const fieldId = (row: MarkerRow) => `marker-${row.markerId}`;

/** The fields whose text differs from what was stored. */
const changedFields = (texts: Texts, stored: Texts): Texts => Object.fromEntries(Object.entries(texts).filter(([id, text]) => text !== (stored[id] ?? '')));
