import { useEffect, useId, useState } from 'react';
import type { ReportSettings } from '../../../core/schemas/report-settings';
import { VERBAL_SCALE_OPTIONS, type VerbalScaleKey } from '../../../core/verbal-scale';
import { useApi } from '../../app/api-provider';
import { ApiError } from '../../api/middleware/api-error';
import { unwrap } from '../../api/unwrap';

type Outcome = { kind: 'saved'; label: string } | { kind: 'failed'; message: string } | null;

/**
 * The verbal scale the organization's hit and calculator PDFs state each LR with (issue 18; GET/PUT
 * …/report-settings, ENFSI 2015 by default). Saved at once with the version read; a change by someone else
 * meanwhile (409) is said and the setting read again.
 */
export function VerbalScaleSetting({ organizationId, mayEdit }: { organizationId: string; mayEdit: boolean }) {
  const api = useApi();
  const ids = { title: useId(), select: useId(), hint: useId() };
  const [settings, setSettings] = useState<ReportSettings | null>(null);
  const [saving, setSaving] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const path = { params: { path: { id: organizationId } } };
  const load = () => unwrap(api.GET('/api/organizations/{id}/report-settings', path)).then(setSettings);

  useEffect(() => {
    void load().catch(() => setOutcome({ kind: 'failed', message: 'The report settings could not be read.' }));
  }, [organizationId]);

  async function change(verbalScale: VerbalScaleKey) {
    if (!settings) return;
    setSaving(true);
    setOutcome(null);
    try {
      setSettings(await unwrap(api.PUT('/api/organizations/{id}/report-settings', { ...path, body: { verbalScale, version: settings.version } })));
      setOutcome({ kind: 'saved', label: VERBAL_SCALE_OPTIONS.find((o) => o.key === verbalScale)!.label });
    } catch (err) {
      const stale = err instanceof ApiError && err.status === 409;
      setOutcome({ kind: 'failed', message: stale ? 'Someone else changed this organization meanwhile; the setting below is as it now is.' : (err instanceof ApiError && err.serverMessage) || 'The setting could not be saved.' });
      if (stale) await load().catch(() => undefined);
    } finally {
      setSaving(false);
    }
  }

  return (
    <section className="form" aria-labelledby={ids.title}>
      <h2 id={ids.title}>Reports</h2>
      <div className="field">
        <label className="field__label" htmlFor={ids.select}>
          Verbal scale
        </label>
        <select
          id={ids.select}
          className="input"
          value={settings?.verbalScale ?? ''}
          disabled={!settings || !mayEdit || saving}
          aria-describedby={ids.hint}
          onChange={(e) => void change(e.target.value as VerbalScaleKey)}
        >
          {settings ? null : <option value="">Reading…</option>}
          {VERBAL_SCALE_OPTIONS.map((o) => (
            <option key={o.key} value={o.key}>
              {o.label}
            </option>
          ))}
        </select>
        <p id={ids.hint} className="field__hint">
          The hit and calculator PDFs state each likelihood ratio with its verbal equivalent on this scale (“very strong support for H1 rather than H2”).
        </p>
      </div>
      {outcome?.kind === 'saved' ? <p role="status">Saved: reports use {outcome.label}.</p> : null}
      {outcome?.kind === 'failed' ? (
        <p role="alert" className="notice notice--negative">
          {outcome.message}
        </p>
      ) : null}
    </section>
  );
}
