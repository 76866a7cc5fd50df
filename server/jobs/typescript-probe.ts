/** Imported by esm-worker-entry.mjs to learn whether the thread imports TypeScript as ES modules already. */
export const typescript = true;
