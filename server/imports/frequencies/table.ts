import Papa from 'papaparse';
import { normaliseLineEndings } from './decode';
import type { Issues, Table, TableRow } from './types';

const CONTAINER = { ',': 'CSV', ';': 'CSV, semicolon-separated', '\t': 'TSV' } as const;

/** Picks the field separator from the first non-empty line: the most frequent of tab, semicolon and comma outside quotes. */
export function detectDelimiter(text: string): ',' | ';' | '\t' | null {
  const first = text.split('\n').find((line) => line.trim() !== '') ?? '';
  const unquoted = first.replace(/"[^"]*"/g, '""');
  const counts = (['\t', ';', ','] as const).map((d) => [d, unquoted.split(d).length - 1] as const);
  // Ties go to the earlier separator: a tab or semicolon file may still hold commas (decimal commas).
  const best = counts.reduce((a, b) => (b[1] > a[1] ? b : a));
  return best[1] > 0 ? best[0] : null;
}

/** Delimited text with its line endings normalised and its field separator found, for eachDelimitedRow. */
export interface DelimitedText {
  text: string;
  delimiter: ',' | ';' | '\t';
  container: string;
}

/** Normalises the line endings and picks the field separator (detectDelimiter; a comma when none is found). */
export function delimitedText(rawText: string): DelimitedText {
  const text = normaliseLineEndings(rawText);
  const delimiter = detectDelimiter(text) ?? ',';
  return { text, delimiter, container: CONTAINER[delimiter] };
}

/**
 * Hands `visit` each non-blank row (1-based line, trimmed cells) as papaparse reads it, keeping none: a 100,000-profile
 * long table is 2,000,000 rows, 380 MB when held. `visit` returning false stops the read.
 */
export function eachDelimitedRow({ text, delimiter }: DelimitedText, issues: Issues, visit: (row: TableRow) => boolean | void): void {
  // Line of each row = 1 + newlines before where it starts; counted incrementally from papaparse's cursor.
  let start = 0;
  let line = 1;
  Papa.parse<string[]>(text, {
    delimiter,
    newline: '\n',
    quoteChar: '"',
    skipEmptyLines: false,
    step: (result, parser) => {
      const cells = result.data.map((c) => c.trim());
      const stop = cells.some((c) => c !== '') && visit({ line, cells }) === false;
      for (const e of result.errors) {
        if (e.code === 'MissingQuotes') issues.errors.push({ row: line, message: 'A quoted value is not closed; the file may be cut short' });
      }
      const end = result.meta.cursor;
      for (let i = start; i < end; i++) if (text.charCodeAt(i) === 10) line++;
      start = end;
      if (stop) parser.abort();
    },
  });
}

/** Reads delimited text into rows with their 1-based line numbers; blank rows are dropped, cells are trimmed. */
export function readDelimited(rawText: string, issues: Issues): Table {
  const source = delimitedText(rawText);
  const rows: TableRow[] = [];
  eachDelimitedRow(source, issues, (row) => void rows.push(row));
  return { rows, delimiter: source.delimiter, container: source.container };
}
