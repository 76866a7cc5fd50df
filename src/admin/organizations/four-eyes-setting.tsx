import { useEffect, useId, useState } from 'react';
import type { ReviewSettings } from '../../../core/schemas/review-settings';
import { useApi } from '../../app/api-provider';
import { ApiError } from '../../api/middleware/api-error';
import { unwrap } from '../../api/unwrap';

type Outcome = { kind: 'saved'; on: boolean } | { kind: 'failed'; message: string } | null;

/**
 * The organization's four-eyes review switch (issue 18; GET/PUT …/review-settings, on by default): whoever entered or
 * imported a profile cannot approve it, nor publish a hit resting on it. Saved at once with the version read; a change
 * by someone else meanwhile (409) is said and the setting read again.
 */
export function FourEyesSetting({ organizationId, mayEdit }: { organizationId: string; mayEdit: boolean }) {
  const api = useApi();
  const ids = { title: useId(), box: useId(), hint: useId() };
  const [settings, setSettings] = useState<ReviewSettings | null>(null);
  const [saving, setSaving] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const path = { params: { path: { id: organizationId } } };
  const load = () => unwrap(api.GET('/api/organizations/{id}/review-settings', path)).then(setSettings);

  useEffect(() => {
    void load().catch(() => setOutcome({ kind: 'failed', message: 'The review settings could not be read.' }));
  }, [organizationId]);

  async function change(on: boolean) {
    if (!settings) return;
    setSaving(true);
    setOutcome(null);
    try {
      setSettings(await unwrap(api.PUT('/api/organizations/{id}/review-settings', { ...path, body: { fourEyesReview: on, version: settings.version } })));
      setOutcome({ kind: 'saved', on });
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
      <h2 id={ids.title}>Review</h2>
      <label className="field--checkbox" htmlFor={ids.box}>
        <input
          id={ids.box}
          type="checkbox"
          checked={settings?.fourEyesReview ?? false}
          disabled={!settings || !mayEdit || saving}
          aria-describedby={ids.hint}
          onChange={(e) => void change(e.target.checked)}
        />
        <span>Four-eyes review</span>
      </label>
      <p id={ids.hint} className="field__hint">
        Whoever entered or imported a profile cannot approve it, nor publish a hit resting on it: another person must (ISO/IEC 17025, FBI QAS).
      </p>
      {outcome?.kind === 'saved' ? <p role="status">{outcome.on ? 'Saved: four-eyes review is on.' : 'Saved: four-eyes review is off; anyone may approve the profiles they entered.'}</p> : null}
      {outcome?.kind === 'failed' ? (
        <p role="alert" className="notice notice--negative">
          {outcome.message}
        </p>
      ) : null}
    </section>
  );
}
