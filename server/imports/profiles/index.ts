import { decodeText, isZip, looksBinary } from '../frequencies/decode';
import { delimitedText, eachDelimitedRow } from '../frequencies/table';
import type { TableRow } from '../frequencies/types';
import { parseCmfXml } from './cmf-xml';
import { detectTableLayout, HEAD_ROWS, isXml } from './detect';
import { parseLongTable } from './long-table';
import { ProfileBuilder } from './profile-builder';
import { parseWideTable } from './wide-table';
import type { Issues, MarkerResolver, ParsedProfiles, ProfileFileInput } from './types';

export type { MarkerResolver, ParsedProfile, ParsedProfiles, ProfileFileInput, ResolvedMarker } from './types';

const SUPPORTED =
  'CODIS CMF 3.2/3.3 XML, a GeneMapper ID/ID-X genotypes or samples table, or a CSV/TSV with a Sample Name column ' +
  'and either Marker and Allele columns or one column per marker';

const UNRECOGNISED = 'Unrecognised';

/**
 * Parses an uploaded DNA profile file (format recognised from its content, never its name) into
 * profiles for preview: CODIS CMF XML, GeneMapper genotypes/samples tables, long and wide CSV/TSV.
 * Saves nothing; each profile lists what keeps it from being added.
 */
export async function parseProfileFile(input: ProfileFileInput, resolveMarker: MarkerResolver): Promise<ParsedProfiles> {
  const issues: Issues = { errors: [], warnings: [] };
  const builder = new ProfileBuilder(resolveMarker, issues);
  const format = readFile(input, builder, resolveMarker, issues);
  const profiles = builder.build();
  // Checked last, so a more specific reason (a broken header, unknown markers) is not drowned out.
  if (profiles.length === 0 && issues.errors.length === 0) {
    const skipped = builder.controls.length;
    issues.errors.push({
      row: null,
      message: skipped > 0 ? `${input.fileName} holds only allelic ladders and controls (${skipped}); there is nothing to import` : `${input.fileName} holds no profiles`,
    });
  }
  return { format, profiles, errors: issues.errors, warnings: issues.warnings, controls: builder.controls };
}

/** Reads the file into the builder and returns the format's name. */
function readFile({ fileName, bytes }: ProfileFileInput, builder: ProfileBuilder, resolve: MarkerResolver, issues: Issues): string {
  const fail = (message: string, row: number | null = null) => {
    issues.errors.push({ row, message });
    return UNRECOGNISED;
  };
  if (bytes.length === 0) return fail(`The file ${fileName} is empty`);
  if (isZip(bytes)) return fail(`${fileName} is an Excel workbook or another ZIP archive; save the sheet as CSV and import that`);
  if (looksBinary(bytes)) return fail(`${fileName} is not a text file; expected ${SUPPORTED}`);
  const text = decodeText(bytes);
  if (text.trim() === '') return fail(`The file ${fileName} is empty`);
  if (isXml(text)) return parseCmfXml(text, fileName, builder, issues);

  // The layout is read from the first rows; the profiles from the rest, one row at a time, none of them kept.
  const source = delimitedText(text);
  const head: TableRow[] = [];
  eachDelimitedRow(source, { errors: [], warnings: [] }, (row) => head.push(row) < HEAD_ROWS);
  const layout = detectTableLayout({ rows: head, delimiter: source.delimiter, container: source.container }, resolve);
  const header = head[0]?.cells ?? [];
  // Every row after the header, read again from the text for each pass (the file's problems are reported once, by this read).
  const body = (visit: (row: TableRow) => void) => {
    let first = true;
    eachDelimitedRow(source, issues, (row) => {
      if (first) first = false;
      else visit(row);
    });
  };
  if (layout === null || layout.layout === 'broken') body(() => undefined);
  if (layout === null) return fail(`${fileName} is not a profile file Locus can read; expected ${SUPPORTED}`);
  switch (layout.layout) {
    case 'broken':
      return fail(layout.message, head[0]?.line ?? 1);
    case 'long':
      parseLongTable(header, body, layout.columns, builder, resolve, issues);
      return layout.format;
    case 'wide':
      parseWideTable(body, layout.columns, builder, issues);
      return layout.format;
  }
}
