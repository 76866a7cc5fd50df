// What every table of `npm run bench` shares: timing a call, a percentile, a time as printed, and the Markdown table.

/** The time of one synchronous call (ms). */
export const time = (f: () => void) => {
  const t0 = performance.now();
  f();
  return performance.now() - t0;
};
/** The time of one asynchronous call (ms). */
export const timeAsync = async (f: () => Promise<unknown>) => {
  const t0 = performance.now();
  await f();
  return performance.now() - t0;
};
/** The value at rank floor(p·n) of the sorted times (the median of an even count is the upper one). */
export const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
/** A time as the tables print it; a figure not measured (no health probe landed in a short scenario: null in the result) as –. */
export const ms = (x: number | null) => (x === null || !Number.isFinite(x) ? '–' : `${x.toFixed(1)} ms`);

/** Prints a table's introduction, then the table in Markdown, each column as wide as its widest cell; nothing without rows. */
export function printTable(intro: string, header: string[], rows: string[][]): void {
  if (rows.length === 0) return;
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(intro);
  console.log([line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n'));
}
