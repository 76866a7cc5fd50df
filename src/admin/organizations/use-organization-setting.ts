import { useEffect, useState } from 'react';
import { ApiError } from '../../api/middleware/api-error';

export type SettingOutcome = { kind: 'saved'; message: string } | { kind: 'failed'; message: string } | null;

/**
 * One of an organization's settings on its form (issue 18: four-eyes review, the verbal scale): read, then saved at
 * once with the organization's version read; a change by someone else meanwhile (409) is said and the setting read
 * again, so the control shows it as it now is.
 */
export function useOrganizationSetting<S extends { version: number }, C>(organizationId: string, calls: { load(): Promise<S>; save(settings: S, change: C): Promise<S> }, what: string) {
  const [settings, setSettings] = useState<S | null>(null);
  const [saving, setSaving] = useState(false);
  const [outcome, setOutcome] = useState<SettingOutcome>(null);
  const load = () => calls.load().then(setSettings);

  useEffect(() => {
    void load().catch(() => setOutcome({ kind: 'failed', message: `The ${what} could not be read.` }));
  }, [organizationId]);

  async function change(value: C, saved: string) {
    if (!settings) return;
    setSaving(true);
    setOutcome(null);
    try {
      setSettings(await calls.save(settings, value));
      setOutcome({ kind: 'saved', message: saved });
    } catch (err) {
      const stale = err instanceof ApiError && err.status === 409;
      setOutcome({ kind: 'failed', message: stale ? 'Someone else changed this organization meanwhile; the setting below is as it now is.' : (err instanceof ApiError && err.serverMessage) || 'The setting could not be saved.' });
      if (stale) await load().catch(() => undefined);
    } finally {
      setSaving(false);
    }
  }

  return { settings, saving, outcome, change };
}
