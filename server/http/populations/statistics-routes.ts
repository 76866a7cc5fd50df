import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorBody, Id } from '../../../core/schemas/common';
import { describeIssue, HaplotypePageQuery, Population, PopulationStatistics, StatisticsPreview } from '../../../core/schemas/populations';
import { BadRequest } from '../errors';
import type { RouteDeps } from '../route-deps';
import { toPopulation } from './population-view';
import { readStatistics } from './read-statistics';
import { readUpload } from './read-upload';
import { replaceStatistics } from './replace-statistics';
import { statisticsCsv } from './statistics-csv';
import { attachmentDisposition } from '../content-disposition';
import { checkStatisticsFile } from './statistics-file';
import { findVisiblePopulation } from './visibility';

const tags = ['populations'];
const ById = z.object({ id: Id });
const VersionField = z.coerce.number().int().min(1);

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
        description: 'multipart/form-data: part `file`; field `population` picks one population of a file that holds several.',
        consumes: ['multipart/form-data'],
        params: ById,
        response: { 200: StatisticsPreview, 400: ErrorBody, 404: ErrorBody, 413: ErrorBody },
      },
    },
    async (request) => {
      const population = await findVisiblePopulation(db, request.user, request.params.id);
      return (await checkStatisticsFile(db, population, await readUpload(request))).preview;
    },
  );

  app.post(
    '/populations/:id/statistics',
    {
      config: { access: { entity: 'Populations', verb: 'Edit' } },
      schema: {
        tags,
        summary: 'Replace the statistics with a file; refused (400, the errors in details) while the file has errors',
        description: 'multipart/form-data: field `version` (the population\'s version read), part `file`, optional field `population` as for the preview.',
        consumes: ['multipart/form-data'],
        params: ById,
        response: { 200: Population, 400: ErrorBody, 404: ErrorBody, 409: ErrorBody, 413: ErrorBody },
      },
    },
    async (request) => {
      const population = await findVisiblePopulation(db, request.user, request.params.id);
      const upload = await readUpload(request);
      const version = VersionField.safeParse(upload.fields.version);
      if (!version.success) throw new BadRequest('Send the version of the population you previewed (field "version").');
      // Parsed again here: the server stores only what it has checked itself, never the client's preview.
      const { preview, statistics } = await checkStatisticsFile(db, population, upload);
      if (preview.errors.length > 0) {
        const message =
          preview.errors.length === 1
            ? describeIssue(preview.errors[0]!)
            : `${upload.fileName} has ${preview.errors.length} errors; the statistics were not saved.`;
        throw new BadRequest(message, preview.errors);
      }
      const row = await replaceStatistics(db, population.id, version.data, statistics, {
        source: preview.population ? `${upload.fileName}, ${preview.population} (${preview.format})` : `${upload.fileName} (${preview.format})`,
        uploadedAt: clock.now(),
      });
      return toPopulation(db, request.user, row);
    },
  );
};
