/** A decision that failed as a whole: what the server said, Try again (the same decision) and Dismiss (drop it). */
export function FailureNotice({ text, onRetry, onDismiss }: { text: string; onRetry(): void; onDismiss(): void }) {
  return (
    <div className="notice notice--negative" role="alert">
      <p>{text}</p>
      <button type="button" className="button button--secondary" onClick={onRetry}>
        Try again
      </button>{' '}
      <button type="button" className="button button--secondary" onClick={onDismiss}>
        Dismiss
      </button>
    </div>
  );
}
