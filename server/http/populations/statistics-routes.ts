import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorBody, Id } from '../../../core/schemas/common';
import { STALE_RECORD_MESSAGE } from '../../../core/schemas/list';
import { describeIssue, HaplotypePageQuery, Population, PopulationStatistics, StatisticsPreview } from '../../../core/schemas/populations';
import { BadRequest, Conflict } from '../errors';
import type { RouteDeps } from '../route-deps';
import { toPopulation } from './population-view';
import { readStatistics } from './read-statistics';
import { readUpload, type Upload } from './read-upload';
import { replaceStatistics } from './replace-statistics';
import { statisticsCsv } from './statistics-csv';
import { attachmentDisposition } from '../content-disposition';
import { untilClientLeaves } from '../client-leaves';
import { checkStatisticsFile } from './statistics-file';
import { findVisiblePopulation } from './visibility';

const tags = ['populations'];
const ById = z.object({ id: Id });
const VersionField = z.coerce.number().int().min(1);


/** Where saved statistics came from, as the population's source reads: file, population, format, and the N file. */
function sourceOf(upload: Upload, preview: StatisticsPreview): string {
  const file = preview.population ? `${upload.fileName}, ${preview.population}` : upload.fileName;
  const sizes = upload.sampleSizes && preview.kind === 'Autosomal' ? `; N from ${upload.sampleSizes.fileName}` : '';
  return `${file} (${preview.format})${sizes}`;
}

/** A population's statistics: read, download, and the two-step upload (preview, then save). */
export const populationStatisticsRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, { db, clock }) => {
  app.get(
    '/populations/:id/statistics',
    {
      config: { access: { entity: 'Populations', verb: 'Read' } },
      schema: {
        tags,
        summary: 'Allele frequencies per marker, or one page of the Y-STR haplotype table',
        params: ById,
        querystring: HaplotypePageQuery,
        response: { 200: PopulationStatistics, 404: ErrorBody },
      },
    },
    async (request) => readStatistics(db, await findVisiblePopulation(db, request.user, request.params.id), request.query),
  );

  app.get(
    '/populations/:id/download',
    {
      config: { access: { entity: 'Populations', verb: 'Read' } },
      schema: {
        tags,
        summary: 'Download the statistics as CSV (spec 7.1: a population can be downloaded)',
        params: ById,
        produces: ['text/csv'],
        response: { 200: z.string().describe('marker,allele,frequency; for a Y-STR haplotype table: count, then one column per marker'), 404: ErrorBody },
      },
    },
    async (request, reply) => {
      const population = await findVisiblePopulation(db, request.user, request.params.id);
      const csv = statisticsCsv(await readStatistics(db, population));
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', attachmentDisposition(`${population.name}.csv`))
        // The CSV text as it is, not JSON-encoded by the schema serializer.
        .serializer((payload) => payload as string)
        .send(csv);
    },
  );

  app.post(
    '/populations/:id/statistics/preview',
    {
      config: { access: { entity: 'Populations', verb: 'Edit' } },
      schema: {
        tags,
        summary: 'Parse a statistics file and show what saving it would store; nothing is saved',
        description:
          'multipart/form-data: part `file`; optional part `sampleSizes`, the sample size N per marker for a table that ships it ' +
          'apart (fbi2015-n.csv beside fbi2015.csv); field `population` picks one population of a file that holds several.',
        consumes: ['multipart/form-data'],
        params: ById,
        response: { 200: StatisticsPreview, 400: ErrorBody, 404: ErrorBody, 413: ErrorBody },
      },
    },
    async (request, reply) => {
      const population = await findVisiblePopulation(db, request.user, request.params.id);
      const upload = await readUpload(request);
      return (await checkStatisticsFile(db, population, upload, { save: false, signal: untilClientLeaves(reply) })).preview;
    },
  );

  app.post(
    '/populations/:id/statistics',
    {
      config: { access: { entity: 'Populations', verb: 'Edit' } },
      schema: {
        tags,
        summary: 'Replace the statistics with a file; refused (400, the errors in details) while the file has errors',
        description:
          'multipart/form-data: field `version` (the population\'s version read), part `file`, optional part `sampleSizes` and field ' +
          '`population` as for the preview.',
        consumes: ['multipart/form-data'],
        params: ById,
        response: { 200: Population, 400: ErrorBody, 404: ErrorBody, 409: ErrorBody, 413: ErrorBody },
      },
    },
    async (request, reply) => {
      const population = await findVisiblePopulation(db, request.user, request.params.id);
      const upload = await readUpload(request);
      const version = VersionField.safeParse(upload.fields.version);
      if (!version.success) throw new BadRequest('Send the version of the population you previewed (field "version").');
      // Refused before the file is read when already stale; the save checks again in its transaction.
      if (version.data !== population.version) throw new Conflict(STALE_RECORD_MESSAGE);
      // Parsed again here: the server stores only what it has checked itself, never the client's preview.
      const { preview, save } = await checkStatisticsFile(db, population, upload, { save: true, signal: untilClientLeaves(reply) });
      if (preview.errors.length > 0 || !save) {
        const message =
          preview.errors.length === 1
            ? describeIssue(preview.errors[0]!)
            : `${upload.fileName} has ${preview.errors.length} errors; the statistics were not saved.`;
        throw new BadRequest(message, preview.errors);
      }
      const row = await replaceStatistics(db, population.id, version.data, save.batches, { source: sourceOf(upload, preview), uploadedAt: clock.now() });
      // The summary of what was just stored, rather than counting 100,000 rows again.
      return toPopulation(db, request.user, row, save.summary);
    },
  );
};
