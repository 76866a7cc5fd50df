// Runs in a worker thread (server/jobs/worker-pool.ts): reading a 20 MB file takes seconds of CPU and
// a gigabyte of short-lived objects, none of which may stall requests or stay in the server's heap.
// The rows go to a spool file as JSON chunks the database reads itself (jsonb_to_recordset): the main thread
// never walks 100,000 parsed profiles, and reads one chunk at a time rather than receiving them all at once.
// First: this worker thread runs below the request thread's priority (background-priority.ts).
import '../jobs/background-priority';
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import type { ImportMarker } from '../../core/schemas/profile-imports';
import type { ImportControl, ImportIssue } from '../../core/schemas/profiles';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { buildMarkerResolver } from '../db/seed/reference/marker-names';
import { profilesDigest } from './approval-token';
import { parseProfileFile, type ParsedProfiles } from './profiles';

/** A marker as the catalogue lists it (the worker builds its own resolver from these). */
export interface CatalogueMarker {
  id: string;
  name: string;
  kind: 'Autosomal' | 'YStr';
  aliases: string[];
  multiCopy: boolean;
}

/** The uploaded file: its bytes, or where the upload was written (read here, off the request thread). */
export type ParseSource = { bytes: Uint8Array } | { uploadFile: string };

export type ParseTask = ParseSource & {
  fileName: string;
  markers: CatalogueMarker[];
  /** Rows per JSON chunk. */
  chunkSize: number;
  /** Where to write the rows (the caller removes it, whether the parse ends, fails or is cancelled). */
  rowsFile: string;
  /** Also return the profiles as the JSON array of `POST /profiles/import`'s body. */
  withBody: boolean;
};

export interface ParseOutcome {
  format: string;
  errors: ImportIssue[];
  warnings: ImportIssue[];
  controls: ImportControl[];
  markers: ImportMarker[];
  profileCount: number;
  flaggedCount: number;
  digest: string;
  /** The kind most profiles have, and the markers typed in profiles of that kind (for the kit suggestion). */
  kind: 'Autosomal' | 'YStr';
  kindMarkerIds: string[];
  /**
   * The rows: JSON arrays (index, line, profile_id, kind, kit, sample_type, marker_values, replicates, errors) as
   * UTF-8, one after the other in the task's rowsFile, `lengths` bytes each, for the caller to read one by one. Sent whole, 60 MB of chunks reached the main thread in one message: a 170-570 ms stall on its
   * arrival at 100,000 profiles (issue 29); 60 MB of strings had taken it 300 ms to rebuild before that.
   */
  rows: RowSpool;
  /** JSON array of ImportedProfile as UTF-8 bytes, when asked for. */
  body: Uint8Array | null;
}

/** Where a parse's rows wait for the main thread: a file of JSON chunks and each chunk's length in bytes. */
export interface RowSpool {
  file: string;
  lengths: number[];
}

/** Parses one upload (server/imports/profiles) and shapes it for storage and preview. */
export default async function parseImport(task: ParseTask): Promise<ParseOutcome> {
  const resolve = buildMarkerResolver(task.markers);
  const bytes = 'bytes' in task ? task.bytes : readFileSync(task.uploadFile);
  const parsed = await parseProfileFile({ fileName: task.fileName, bytes }, resolve);
  const profiles = parsed.profiles;
  const controls = (parsed as ParsedProfiles & { controls?: ImportControl[] }).controls ?? [];

  const perMarker = new Map<string, ImportMarker>();
  for (const p of profiles) {
    for (const m of p.markerValues) {
      const entry = perMarker.get(m.markerId) ?? { markerId: m.markerId, name: m.marker, profiles: 0 };
      entry.profiles += 1;
      perMarker.set(m.markerId, entry);
    }
  }
  const autosomal = profiles.filter((p) => p.kind === 'Autosomal').length;
  const kind = profiles.length > 0 && autosomal === 0 ? 'YStr' : 'Autosomal';
  const kindMarkerIds = [...new Set(profiles.filter((p) => p.kind === kind).flatMap((p) => p.markerValues.map((m) => m.markerId)))];

  const utf8 = new TextEncoder();
  const rows: RowSpool = { file: task.rowsFile, lengths: [] };
  const spool = openSync(rows.file, 'w', 0o600);
  try {
    for (let start = 0; start < profiles.length; start += task.chunkSize) {
      const chunk = profiles.slice(start, start + task.chunkSize).map((p, i) => ({
        index: start + i,
        line: p.line,
        profile_id: p.profileId,
        kind: p.kind,
        kit: p.kit,
        sample_type: p.sampleType,
        marker_values: p.markerValues,
        replicates: p.replicates ?? [],
        errors: p.errors,
      }));
      const bytes = utf8.encode(JSON.stringify(chunk));
      // A partial write goes on where it stopped.
      for (let at = 0; at < bytes.length; ) at += writeSync(spool, bytes, at);
      rows.lengths.push(bytes.length);
    }
  } finally {
    closeSync(spool);
  }
  const body = task.withBody ? utf8.encode(JSON.stringify(profiles.map(({ line: _line, ...p }) => p))) : null;
  const outcome: ParseOutcome = {
    format: parsed.format,
    errors: parsed.errors,
    warnings: parsed.warnings,
    controls,
    markers: [...perMarker.values()],
    profileCount: profiles.length,
    flaggedCount: profiles.filter((p) => p.errors.length > 0).length,
    digest: profilesDigest(profiles),
    kind,
    kindMarkerIds,
    rows,
    body,
  };
  // The body's bytes move to the main thread instead of being copied there.
  if (!body) return outcome;
  return move({
    get [transferableSymbol]() {
      return [body.buffer];
    },
    get [valueSymbol]() {
      return outcome;
    },
  }) as unknown as ParseOutcome;
}
