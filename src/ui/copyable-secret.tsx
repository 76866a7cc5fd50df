import { useRef, useState } from 'react';
import './copyable-secret.css';

/**
 * A secret shown once (a personal access token, a service client's secret): read-only, selected on focus, with a
 * Copy button. The clipboard exists only in secure contexts; elsewhere the secret is selected for copying by hand.
 */
export function CopyableSecret({ id, label, value }: { id: string; label: string; value: string }) {
  const input = useRef<HTMLInputElement>(null);
  const [copy, setCopy] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copyValue = async () => {
    try {
      if (!navigator.clipboard) throw new Error('No clipboard');
      await navigator.clipboard.writeText(value);
      setCopy('copied');
    } catch {
      input.current?.select();
      setCopy('failed');
    }
  };
  return (
    <>
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      <div className="copyable-secret">
        <input id={id} ref={input} className="input" readOnly value={value} onFocus={(e) => e.currentTarget.select()} spellCheck={false} />
        <button type="button" className="button button--secondary" onClick={() => void copyValue()}>
          {copy === 'copied' ? 'Copied' : 'Copy'}
        </button>
      </div>
      {copy === 'failed' ? <p className="field__hint">The browser did not allow copying: the {label.toLowerCase()} is selected, copy it by hand.</p> : null}
    </>
  );
}
