// Cell text that means "no value" (FORMATS.md §0), shared with the hand entry of peak heights (core/peak-cells.ts).
export { isBlank } from '../../../core/blank-cell';

/** A number read from a cell, or why it could not be read. */
export type NumberCell = { ok: true; value: number } | { ok: false; reason: string };

const DECIMAL = /^[+-]?(?:\d+(?:[.,]\d*)?|[.,]\d+)(?:[eE][+-]?\d+)?$/;

// The first decimal separator seen sets the file's convention; a cell using the other one is refused.
/** Reads the decimal numbers of one file, accepting a decimal comma only when the file uses it throughout. */
export class DecimalReader {
  private mark: '.' | ',' | null = null;

  /** Reads a cell as a number, in plain or E-notation (7.72499E-4), with the file's decimal mark. */
  read(cell: string): NumberCell {
    const text = cell.trim();
    if (!DECIMAL.test(text)) return { ok: false, reason: `"${text}" is not a number` };
    const mark = text.includes(',') ? ',' : text.includes('.') ? '.' : null;
    if (mark !== null) {
      if (this.mark === null) this.mark = mark;
      else if (this.mark !== mark) {
        const used = this.mark === ',' ? 'decimal commas' : 'decimal points';
        return { ok: false, reason: `"${text}" uses a decimal ${mark === ',' ? 'comma' : 'point'}, but the file uses ${used}` };
      }
    }
    return { ok: true, value: Number(text.replace(',', '.')) };
  }

  /** The decimal mark the file has used so far, if any. */
  get decimalMark(): '.' | ',' | null {
    return this.mark;
  }
}

/** Reads a sample size: a positive whole number, or null when the text is not one. */
export function readCount(cell: string | undefined): number | null {
  const text = (cell ?? '').trim();
  if (!/^\d+$/.test(text)) return null;
  const n = Number(text);
  return n > 0 ? n : null;
}
