// What every table of `npm run bench` shares: timing a call, a percentile, a time as printed, and the Markdown table.
import { readFileSync } from 'node:fs';

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
/**
 * Wall and CPU time of one synchronous call (ms). The CPU time is the calling thread's own (issue 29 "per thread"): the
 * kernel leaves out of it the time this virtual machine's host took the core away (steal, which swings a run's wall
 * times by 2× and more), and it leaves out V8's helper threads (concurrent marking after the index's build ran beside
 * the searches: the process's CPU time came to twice the wall time). Read from /proc/thread-self/schedstat after a wait
 * of a microsecond (the kernel brings a thread's figure up to date only when it is scheduled), less what the reading
 * itself costs; the process's CPU time where /proc is absent.
 */
export interface Timing {
  wall: number;
  cpu: number;
}
const waitCell = new Int32Array(new SharedArrayBuffer(4));
function threadCpuNs(): number | undefined {
  try {
    Atomics.wait(waitCell, 0, 0, 0.001);
    return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]);
  } catch {
    return undefined;
  }
}
/** The median cost of a reading (ns), taken off every timing; measured at the first timing. */
let readingCost: number | undefined;
function costOfReading(): number {
  if (readingCost !== undefined) return readingCost;
  const costs: number[] = [];
  for (let i = 0; i < 51; i++) {
    const a = threadCpuNs();
    const b = threadCpuNs();
    if (a === undefined || b === undefined) return (readingCost = 0);
    costs.push(b - a);
  }
  return (readingCost = percentile(costs, 0.5));
}
export const timed = (f: () => void): Timing => {
  costOfReading();
  const n0 = threadCpuNs();
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  f();
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  const n1 = threadCpuNs();
  const cpu = n0 === undefined || n1 === undefined ? (c.user + c.system) / 1000 : Math.max(0, n1 - n0 - costOfReading()) / 1e6;
  return { wall, cpu };
};
/** The median wall and the median CPU time of the calls. */
export const medianTiming = (xs: readonly Timing[]): Timing => ({ wall: percentile(xs.map((x) => x.wall), 0.5), cpu: percentile(xs.map((x) => x.cpu), 0.5) });
/** A search against the floor per thread: the ratio of the median CPU times, the ratio of the median wall times beside it. */
export const perThread = (x: Timing, floor: Timing) => `${(x.cpu / floor.cpu).toFixed(2)}× (wall ${(x.wall / floor.wall).toFixed(2)}×)`;
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
