import { useId } from 'react';
import type { ReviewSettings } from '../../../core/schemas/review-settings';
import { useApi } from '../../app/api-provider';
import { unwrap } from '../../api/unwrap';
import { SettingOutcomeNotice } from './setting-outcome';
import { useOrganizationSetting } from './use-organization-setting';

/**
 * The organization's four-eyes review switch (issue 18; GET/PUT …/review-settings, on by default): whoever entered or
 * imported a profile cannot approve it, nor publish a hit resting on it. Saved at once with the version read; a change
 * by someone else meanwhile (409) is said and the setting read again.
 */
export function FourEyesSetting({ organizationId, mayEdit }: { organizationId: string; mayEdit: boolean }) {
  const api = useApi();
  const ids = { title: useId(), box: useId(), hint: useId() };
  const path = { params: { path: { id: organizationId } } };
  const { settings, saving, outcome, change } = useOrganizationSetting<ReviewSettings, boolean>(
    organizationId,
    {
      load: () => unwrap(api.GET('/api/organizations/{id}/review-settings', path)),
      save: (read, on) => unwrap(api.PUT('/api/organizations/{id}/review-settings', { ...path, body: { fourEyesReview: on, version: read.version } })),
    },
    'review settings',
  );

  return (
    <section className="form" aria-labelledby={ids.title}>
      <h2 id={ids.title}>Review</h2>
      <label className="field--checkbox" htmlFor={ids.box}>
        <input
          id={ids.box}
          type="checkbox"
          checked={settings?.fourEyesReview ?? false}
          disabled={!settings || !mayEdit || saving}
          aria-describedby={ids.hint}
          onChange={(e) => void change(e.target.checked, e.target.checked ? 'Saved: four-eyes review is on.' : 'Saved: four-eyes review is off; anyone may approve the profiles they entered.')}
        />
        <span>Four-eyes review</span>
      </label>
      <p id={ids.hint} className="field__hint">
        Whoever entered or imported a profile cannot approve it, nor publish a hit resting on it: another person must (ISO/IEC 17025, FBI QAS).
      </p>
      <SettingOutcomeNotice outcome={outcome} />
    </section>
  );
}
