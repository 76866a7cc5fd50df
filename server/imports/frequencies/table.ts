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

/** Reads delimited text into rows with their 1-based line numbers; blank rows are dropped, cells are trimmed. */
export function readDelimited(rawText: string, issues: Issues): Table {
  const text = normaliseLineEndings(rawText);
  const delimiter = detectDelimiter(text) ?? ',';
  const rows: TableRow[] = [];
  // Line of each row = 1 + newlines before where it starts; counted incrementally from papaparse's cursor.
  let start = 0;
  let line = 1;
  Papa.parse<string[]>(text, {
    delimiter,
    newline: '\n',
    quoteChar: '"',
    skipEmptyLines: false,
    step: (result) => {
      const cells = result.data.map((c) => c.trim());
      if (cells.some((c) => c !== '')) rows.push({ line, cells });
      for (const e of result.errors) {
        if (e.code === 'MissingQuotes') issues.errors.push({ row: line, message: 'A quoted value is not closed; the file may be cut short' });
      }
      const end = result.meta.cursor;
      for (let i = start; i < end; i++) if (text.charCodeAt(i) === 10) line++;
      start = end;
    },
  });
  return { rows, delimiter, container: CONTAINER[delimiter] };
}
