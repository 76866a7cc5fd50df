const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Spec 5: an id that is not a GUID (8-4-4-4-12 hexadecimal) counts as a new record. */
export const isGuid = (id: string): boolean => GUID.test(id);
