/** One field error of a 400 (`details`: `{ path, message }[]`, paths into the request body, e.g. `/markerValues/3/alleles`). */
export interface ServerFieldError {
  path: string;
  message: string;
}

/** The field errors a failed call's body carries, or none (ARCHITECTURE.md "Calls": `{ error, details? }`). */
export function serverFieldErrors(err: unknown): ServerFieldError[] {
  const details = (err as { body?: { details?: unknown } } | null)?.body?.details;
  if (!Array.isArray(details)) return [];
  return details.filter((d): d is ServerFieldError => typeof d?.path === 'string' && typeof d?.message === 'string');
}

/** The index a path names after `prefix` (`/markerValues/3/alleles` → 3 for `/markerValues/`), or null. */
export function indexInPath(path: string, prefix: string): number | null {
  if (!path.startsWith(prefix)) return null;
  const index = Number.parseInt(path.slice(prefix.length), 10);
  return Number.isInteger(index) ? index : null;
}
