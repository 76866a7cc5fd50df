/** JSON with object keys sorted at every level, so the same value always hashes the same (jsonb reorders keys). */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const source = value as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(source)
        .filter((key) => source[key] !== undefined)
        .sort()
        .map((key) => [key, sortKeys(source[key])]),
    );
  }
  return value;
}

/** A value as JSON would carry it (dates as ISO text, undefined dropped), so what is stored is what was hashed. */
export function plainJson<T>(value: T): unknown {
  return value === undefined ? null : (JSON.parse(canonicalJson(value)) as unknown);
}
