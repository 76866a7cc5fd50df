import { useRef, useState } from 'react';
import { useOwnClick } from '../ui/data-table/use-own-click';
import type { HitCalls } from './hits-api';

/**
 * Download (spec 2.4): the hit's PDF report, saved under the name the server gives. In a list row
 * the click and Enter stay with the button (useOwnClick).
 */
export function HitDownloadButton({ hitId, calls, label = 'Download PDF' }: { hitId: string; calls: HitCalls; label?: string }) {
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState<string | null>(null);
  const ref = useRef<HTMLButtonElement>(null);
  const download = async () => {
    setBusy(true);
    setSaved(null);
    try {
      setSaved(await calls.download(hitId));
    } catch {
      // The API client already told the user (spec 8.1).
    } finally {
      setBusy(false);
    }
  };
  useOwnClick(ref, () => void download());
  return (
    <>
      <button ref={ref} type="button" className="button button--secondary hit-download" disabled={busy} aria-busy={busy}>
        {busy ? 'Preparing PDF…' : label}
      </button>
      {saved ? (
        <span className="field__hint" role="status">
          Saved {saved}
        </span>
      ) : null}
    </>
  );
}
