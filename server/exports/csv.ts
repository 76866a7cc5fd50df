/** A plain decimal number (−0.0736, +3, 1.2e-5): a spreadsheet reads it as a number, never as a formula. */
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * One CSV cell. A cell that starts with = + - @ (or a tab/CR) is prefixed with ' so a spreadsheet
 * opening the download does not run it as a formula (OWASP "CSV injection") — unless it is a plain
 * number, which must stay a number (−0.0736, not the text '-0.0736); quotes, commas and line breaks are
 * quoted as RFC 4180 says.
 */
export function csvCell(value: string | number): string {
  const text = String(value);
  const safe = typeof value !== 'number' && !NUMBER.test(text) && /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** Rows as CSV text with CRLF line ends (RFC 4180), each cell made safe by csvCell. */
export function csvText(rows: readonly (readonly (string | number)[])[]): string {
  return rows.map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
