// A benchmark run in a process of its own (node --import tsx bench/<script> …): its peak RSS is then its own, not the
// earlier runs'. It prints its result as one line `RESULT <json>`.
import { spawnSync } from 'node:child_process';

/** Runs bench/<script> with the arguments; its RESULT line parsed (null without one) and its exit status. */
export function runInItsOwnProcess<T>(script: string, args: readonly string[]): { result: T | null; status: number | null } {
  const run = spawnSync(process.execPath, ['--import', 'tsx', new URL(`./${script}`, import.meta.url).pathname, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 1 << 24 });
  const line = run.stdout.split('\n').find((l) => l.startsWith('RESULT '));
  return { result: line ? (JSON.parse(line.slice('RESULT '.length)) as T) : null, status: run.status };
}

/** As runInItsOwnProcess, the result required: `what` names the run in the error ("the PGlite import run ended without a result"). */
export function resultOfOwnProcess<T>(script: string, args: readonly string[], what: string): T {
  const { result, status } = runInItsOwnProcess<T>(script, args);
  if (!result) throw new Error(`the ${what} run ended without a result (exit ${status})`);
  return result;
}
