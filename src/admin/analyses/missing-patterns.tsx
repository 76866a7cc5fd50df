/** The allele expressions the formula table lacks (issue 5: an incomplete table says which patterns are missing). */
export function MissingPatterns({ patterns }: { patterns: readonly string[] }) {
  if (patterns.length === 0) return null;
  return (
    <div className="notice notice--warning missing-patterns" role="status" aria-label="Missing formulae">
      <p>
        <strong>These allele expressions have no formula and are reported as not evaluated:</strong>
      </p>
      <ul className="missing-patterns__list">
        {patterns.map((p) => (
          <li key={p}>
            <code>{p}</code>
          </li>
        ))}
      </ul>
    </div>
  );
}
