// Runs in a worker thread (server/jobs/worker-pool.ts), ARCHITECTURE.md "Heavy work off the request
// thread": reading a 100,000-row table takes seconds of CPU and a few hundred MB of short-lived
// objects, none of which may stall requests. What returns is the preview and, for a save, the rows
// as JSON batches (UTF-8 bytes, transferred), so the main thread never walks the parsed table.
// First: this worker thread runs below the request thread's priority (background-priority.ts).
import '../../jobs/background-priority';
import { Piscina } from 'piscina';
import type { StatisticsPreview, StatisticsSummary } from '../../../core/schemas/populations';
import { buildMarkerResolver, type MarkerWithAliases } from '../../db/seed/reference/marker-names';
import { parseFrequencyFile, type FrequencyFileInput } from '../../imports/frequencies';
import { checkParsed, statisticsBatches, statisticsSummary, type BatchLimit, type StatisticsBatches, type TargetPopulation } from './statistics-check';

export interface StatisticsTask {
  file: FrequencyFileInput;
  /** The optional companion of N per marker. */
  sampleSizes: FrequencyFileInput | null;
  /** Which population of a file that holds several (form field `population`). */
  sourcePopulation: string | null;
  target: TargetPopulation;
  markers: MarkerWithAliases[];
  /** How large each batch of a save may grow; null for a preview (nothing to store). */
  batches: BatchLimit | null;
}

export type StatisticsOutcome =
  | { ok: true; preview: StatisticsPreview; save: { batches: StatisticsBatches; summary: StatisticsSummary } | null }
  /** The file could not be read at all (the parser threw). */
  | { ok: false; message: string };

/** Parses and checks one upload against the population; for a save (no errors), shapes its rows too. */
export default async function checkStatistics(task: StatisticsTask): Promise<StatisticsOutcome> {
  let parsed;
  try {
    parsed = await parseFrequencyFile(task.file, buildMarkerResolver(task.markers), {
      kind: task.target.kind,
      ...(task.sourcePopulation ? { population: task.sourcePopulation } : {}),
      ...(task.sampleSizes ? { sampleSizes: task.sampleSizes } : {}),
    });
  } catch (err) {
    return { ok: false, message: err instanceof Error ? err.message : String(err) };
  }
  const { preview, statistics } = checkParsed(parsed, task.file.fileName, task.target, task.markers);
  if (task.batches === null || preview.errors.length > 0) return { ok: true, preview, save: null };
  const batches = statisticsBatches(statistics, task.batches);
  const outcome: StatisticsOutcome = { ok: true, preview, save: { batches, summary: statisticsSummary(statistics) } };
  // Transferred, not copied: copying 100 MB into the main thread's heap would hold it for over 100 ms.
  const buffers = [...batches.markers, ...batches.alleles, ...batches.haplotypes].map((b) => b.buffer);
  const movable = { [Piscina.transferableSymbol]: buffers, [Piscina.valueSymbol]: outcome } as unknown as Parameters<typeof Piscina.move>[0];
  // Piscina posts the value with the buffers in its transfer list; the caller receives `outcome`.
  return Piscina.move(movable) as unknown as StatisticsOutcome;
}
