import type { PopulationKind, StatisticsPreview, StatisticsSummary } from '../../../core/schemas/populations';
import type { Db } from '../../db/database';
import { markers } from '../../db/schema';
import type { MarkerWithAliases } from '../../db/seed/reference/marker-names';
import { workerPool } from '../../jobs/worker-pool';
import { BadRequest } from '../errors';
import type { Upload } from './read-upload';
import type { BatchLimit, StatisticsBatches } from './statistics-check';
import type { StatisticsOutcome, StatisticsTask } from './statistics-worker';

// Not `new URL('./…', import.meta.url)` with the name written inline: Vite rewrites that form into an
// asset URL (http://localhost:3000/…) when the server runs inside the component tests.
const WORKER_FILE = './statistics-worker.ts';
const statisticsWorker = new URL(WORKER_FILE, import.meta.url);

// A batch of 250 Y-STR haplotypes (about 1 kB of JSON each) takes some 10–30 ms on PGlite, never more than
// about 90 ms (bench/frequency-save-bench.ts).
/** How large one INSERT of a save grows: short statements, so other requests' statements get in between (PGlite has one connection). */
export const SAVE_BATCH: BatchLimit = { rows: 1000, bytes: 256 * 1024 };

/** A checked statistics file: what the preview shows and, for a save without errors, the rows to store and their summary. */
export interface CheckedStatisticsFile {
  preview: StatisticsPreview;
  save: { batches: StatisticsBatches; summary: StatisticsSummary } | null;
}

/** The markers table as the worker's resolver reads it: names, aliases, kinds. */
async function markerCatalogue(db: Db): Promise<MarkerWithAliases[]> {
  const rows = await db.select({ id: markers.id, name: markers.name, kind: markers.kind, aliases: markers.aliases, multiCopy: markers.multiCopy }).from(markers);
  return rows.map((m) => ({ ...m, kind: m.kind === 'YStr' ? ('YStr' as const) : ('Autosomal' as const) }));
}

/**
 * Parses an uploaded file (field `population` picks one population of a file that holds several; part
 * `sampleSizes` gives N per marker) against the markers table and checks it fits the population, in a
 * worker thread. `save` also asks for the rows to store, in batches. A file the parser cannot read at
 * all is a 400; `signal` stops the worker when the client has gone.
 */
export async function checkStatisticsFile(
  db: Db,
  population: { name: string; kind: string },
  upload: Upload,
  opts: { save: boolean; signal?: AbortSignal },
): Promise<CheckedStatisticsFile> {
  const kind: PopulationKind = population.kind === 'YStr' ? 'YStr' : 'Autosomal';
  const task: StatisticsTask = {
    file: { fileName: upload.fileName, bytes: upload.bytes },
    sampleSizes: upload.sampleSizes ?? null,
    sourcePopulation: upload.fields.population || null,
    target: { name: population.name, kind },
    markers: await markerCatalogue(db),
    batches: opts.save ? SAVE_BATCH : null,
  };
  const outcome = (await workerPool(statisticsWorker).run(task, opts.signal ? { signal: opts.signal } : {})) as StatisticsOutcome;
  if (!outcome.ok) throw new BadRequest(`${upload.fileName} could not be read: ${outcome.message}`);
  return { preview: outcome.preview, save: outcome.save };
}
