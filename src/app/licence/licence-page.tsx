import { useState } from 'react';
import { LICENCE_SECTIONS, LICENCE_TITLE, LICENCE_VERSION } from './licence-text';

interface LicencePageProps {
  /** Records the acceptance; a rejection leaves the page so the user can try again. */
  onAccept(): Promise<void>;
}

/** Shown instead of every page until the user has accepted the terms of use. */
export function LicencePage({ onAccept }: LicencePageProps) {
  const [accepting, setAccepting] = useState(false);
  const [failed, setFailed] = useState(false);
  const accept = async () => {
    setAccepting(true);
    setFailed(false);
    try {
      await onAccept();
    } catch {
      // The API client has already told the user why; offer the button again.
      setFailed(true);
    } finally {
      setAccepting(false);
    }
  };
  return (
    <section className="page licence" aria-labelledby="page-title">
      <h1 id="page-title">{LICENCE_TITLE}</h1>
      <p className="licence__intro">Before you start, please read and accept the terms of use (version {LICENCE_VERSION}).</p>
      <div className="licence__text" tabIndex={0} role="region" aria-label="Terms of use text">
        {LICENCE_SECTIONS.map((section) => (
          <section key={section.heading}>
            <h2>{section.heading}</h2>
            {section.paragraphs.map((p) => (
              <p key={p}>{p}</p>
            ))}
          </section>
        ))}
      </div>
      {failed ? (
        <p className="notice notice--negative" role="alert">
          Your acceptance could not be recorded. Please try again.
        </p>
      ) : null}
      <div className="licence__actions">
        <button type="button" className="button button--primary" onClick={() => void accept()} disabled={accepting} aria-busy={accepting}>
          {accepting ? 'Recording…' : 'I accept'}
        </button>
      </div>
    </section>
  );
}
