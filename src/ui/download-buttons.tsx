import { useState } from 'react';

/** One button of a row of downloads: what it fetches and its label. */
export interface DownloadChoice<K extends string> {
  key: K;
  label: string;
}

/**
 * A row of download buttons (a profile's CMF/CSV, a trail's CSV/PDF): one download at a time, and a
 * status saying the name the file was saved under. `download` resolves to that name.
 */
export function DownloadButtons<K extends string>({ choices, download }: { choices: readonly DownloadChoice<K>[]; download(key: K): Promise<string> }) {
  const [busy, setBusy] = useState<K | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const run = async (key: K) => {
    setBusy(key);
    setSaved(null);
    try {
      setSaved(await download(key));
    } catch {
      // The API client already told the user (spec 8.1).
    } finally {
      setBusy(null);
    }
  };
  return (
    <div className="profile-actions__group">
      {choices.map(({ key, label }) => (
        <button key={key} type="button" className="button button--secondary" disabled={busy !== null} aria-busy={busy === key} onClick={() => void run(key)}>
          {label}
        </button>
      ))}
      <span className="field__hint" role="status">
        {saved ? `Saved ${saved}` : ''}
      </span>
    </div>
  );
}
