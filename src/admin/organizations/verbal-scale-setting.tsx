import { useId } from 'react';
import type { ReportSettings } from '../../../core/schemas/report-settings';
import { VERBAL_SCALE_OPTIONS, type VerbalScaleKey } from '../../../core/verbal-scale';
import { useApi } from '../../app/api-provider';
import { unwrap } from '../../api/unwrap';
import { SettingOutcomeNotice } from './setting-outcome';
import { useOrganizationSetting } from './use-organization-setting';

/**
 * The verbal scale the organization's hit and calculator PDFs state each LR with (issue 18; GET/PUT
 * …/report-settings, ENFSI 2015 by default). Saved at once with the version read; a change by someone else
 * meanwhile (409) is said and the setting read again.
 */
export function VerbalScaleSetting({ organizationId, mayEdit }: { organizationId: string; mayEdit: boolean }) {
  const api = useApi();
  const ids = { title: useId(), select: useId(), hint: useId() };
  const path = { params: { path: { id: organizationId } } };
  const { settings, saving, outcome, change } = useOrganizationSetting<ReportSettings, VerbalScaleKey>(
    organizationId,
    {
      load: () => unwrap(api.GET('/api/organizations/{id}/report-settings', path)),
      save: (read, verbalScale) => unwrap(api.PUT('/api/organizations/{id}/report-settings', { ...path, body: { verbalScale, version: read.version } })),
    },
    'report settings',
  );
  const choose = (key: VerbalScaleKey) => change(key, `Saved: reports use ${VERBAL_SCALE_OPTIONS.find((o) => o.key === key)!.label}.`);

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
          onChange={(e) => void choose(e.target.value as VerbalScaleKey)}
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
      <SettingOutcomeNotice outcome={outcome} />
    </section>
  );
}
