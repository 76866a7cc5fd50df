// Runs in a worker thread (server/jobs/worker-pool.ts), ARCHITECTURE.md "Heavy work off the request thread": the
// report weighs the stain again (a fit takes seconds) and lays out a PDF of many pages and charts.
// First: this worker thread runs below the request thread's priority (background-priority.ts).
import './background-priority';
import type { ContinuousRequest } from '../genetics/continuous/continuous-request';
import { continuousResultCsv } from '../reports/continuous-csv';
import { continuousReportDocument, type ContinuousReportFacts } from '../reports/continuous-report';
import { renderPdf } from '../reports/pdf';
import { weighContinuous } from './continuous-lr-worker';

export interface ContinuousReportTask {
  request: ContinuousRequest;
  format: 'pdf' | 'csv';
  facts: ContinuousReportFacts;
}

/** The file, or the refusal's message (a thread boundary loses the error's class). */
export type ContinuousReportOutcome = { file: Uint8Array | string } | { refused: string };

/** Weighs the request as POST continuous-lr does and writes the result as PDF or CSV. */
export default async function continuousReportWorker({ request, format, facts }: ContinuousReportTask): Promise<ContinuousReportOutcome> {
  const outcome = weighContinuous(request);
  if ('refused' in outcome) return outcome;
  if (format === 'csv') return { file: continuousResultCsv(request, outcome.ok, facts) };
  return { file: new Uint8Array(await renderPdf(continuousReportDocument(request, outcome.ok, facts))) };
}
