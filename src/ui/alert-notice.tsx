/** What the server said when a form or a decision failed, above it; nothing when `text` is null. */
export function AlertNotice({ text }: { text: string | null }) {
  return text ? (
    <p className="notice notice--negative" role="alert">
      {text}
    </p>
  ) : null;
}
