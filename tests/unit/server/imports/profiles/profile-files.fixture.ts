import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildMarkerResolver } from '../../../../../server/db/seed/reference/marker-names';
import { SEED_MARKERS } from '../../../../../server/db/seed/reference/markers';
import { parseProfileFile, type ParsedProfile, type ParsedProfiles } from '../../../../../server/imports/profiles';

// Ids are UUIDs, as the database gives them, so parsed profiles can be checked against the API schema.
const IDS = new Map(SEED_MARKERS.map((m, i) => [m.name, `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`]));

/** The id the test catalogue gives a seeded marker. */
export function idOf(name: string): string {
  const id = IDS.get(name);
  if (!id) throw new Error(`${name} is not a seeded marker`);
  return id;
}

/** The markers Locus seeds, as the import route's catalogue resolves them (name or alias, any case). */
export const resolveMarker = buildMarkerResolver(SEED_MARKERS.map((m) => ({ ...m, id: idOf(m.name) })));

const FORMATS = path.resolve(import.meta.dirname, '../../../../../../shared/data/formats');

/** The bytes of a file of /work/shared/data/formats (read in place, never copied into the repository). */
export function sharedBytes(file: string): Buffer {
  return readFileSync(path.join(FORMATS, file));
}

/** Parses a shared file as an upload of that name. */
export function parseShared(file: string): Promise<ParsedProfiles> {
  return parseProfileFile({ fileName: path.basename(file), bytes: sharedBytes(file) }, resolveMarker);
}

/** Parses text (UTF-8) or bytes as an upload. */
export function parseUpload(fileName: string, content: string | Uint8Array): Promise<ParsedProfiles> {
  const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : content;
  return parseProfileFile({ fileName, bytes }, resolveMarker);
}

/** A profile's alleles by marker name, for compact assertions. */
export function allelesOf(profile: ParsedProfile | undefined): Record<string, string[]> {
  return Object.fromEntries((profile?.markerValues ?? []).map((m) => [m.marker, m.alleles]));
}

/** The profile with this sample name; fails the test when there is none. */
export function profileNamed(result: ParsedProfiles, name: string): ParsedProfile {
  const profile = result.profiles.find((p) => p.profileId === name);
  if (!profile) throw new Error(`No profile ${name}; got ${result.profiles.map((p) => p.profileId).join(', ')}`);
  return profile;
}

/** The messages of a list of issues. */
export const messages = (issues: readonly { message: string }[]) => issues.map((i) => i.message);
