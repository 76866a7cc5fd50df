import type { ImportControl, ImportedProfile, ImportIssue } from '../../../core/schemas/profiles';

/** A marker as the caller's catalogue knows it (name or alias, any case → marker); undefined for an unknown name. */
export type MarkerResolver = (name: string) => ResolvedMarker | undefined;

/** What a resolver returns for a known marker name. */
export interface ResolvedMarker {
  id: string;
  name: string;
  kind: 'Autosomal' | 'YStr';
  /** A multi-copy Y marker (DYS385, DYF387S1…), whose values form a set. */
  multiCopy?: boolean;
}

/** The uploaded file. */
export interface ProfileFileInput {
  fileName: string;
  bytes: Uint8Array;
}

/** One parsed profile: what the import returns (ImportedProfile) plus the 1-based line or row where it starts. */
export interface ParsedProfile extends ImportedProfile {
  line: number | null;
}

/**
 * The outcome of parsing one upload: the profiles, each with the problems that keep it from being added, the file's
 * problems, and the allelic ladders and controls skipped (each name once, where it first appears), listed apart.
 */
export interface ParsedProfiles {
  format: string;
  profiles: ParsedProfile[];
  errors: ImportIssue[];
  warnings: ImportIssue[];
  controls: ImportControl[];
}

/** Where the parsers report problems of the whole file. */
export interface Issues {
  errors: ImportIssue[];
  warnings: ImportIssue[];
}
