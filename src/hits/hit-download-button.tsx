import { useEffect, useRef, useState } from 'react';
import type { HitCalls } from './hits-api';

/**
 * Download (spec 2.4): the hit's PDF report, saved under the name the server gives. In a list row
 * the click and Enter stay with the button: the grid listens on the row natively, so React's
 * stopPropagation would come too late.
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
  const latest = useRef(download);
  latest.current = download;
  useEffect(() => {
    const button = ref.current;
    if (!button) return;
    // Native listeners: stopping the event here also keeps it from React's root listener, so the
    // download starts here too rather than in an onClick that would never be called.
    const click = (e: Event) => {
      e.stopPropagation();
      void latest.current();
    };
    const keep = (e: Event) => e.stopPropagation();
    button.addEventListener('click', click);
    button.addEventListener('keydown', keep);
    return () => {
      button.removeEventListener('click', click);
      button.removeEventListener('keydown', keep);
    };
  }, []);
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
