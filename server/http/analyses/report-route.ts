import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AnalyzeBody } from '../../../core/schemas/analyses';
import { ErrorBody, Id } from '../../../core/schemas/common';
import { analysisResultCsv, analysisResultDocument } from '../../reports/analysis-report';
import { renderPdf } from '../../reports/pdf';
import { loadReportFacts } from '../../reports/report-facts';
import { auditActor } from '../audit-actor';
import { fileResponse, sendAttachment } from '../content-disposition';
import type { RouteDeps } from '../route-deps';
import { runAnalysis } from './analyze-route';

const ReportQuery = z.object({ format: z.enum(['pdf', 'csv']).default('pdf') });

/** POST analyses/{id}/report (issue 5: the result downloads as a PDF and CSV): the same run as analyze, as a file. */
export const reportRoute: FastifyPluginAsyncZod<RouteDeps> = async (app, { db, clock }) => {
  app.post(
    '/analyses/:id/report',
    {
      config: { access: { entity: 'Analyses', verb: 'Read' } },
      schema: {
        tags: ['analyses'],
        summary: 'Run an analysis and download the result as PDF (format=pdf, the default) or CSV (format=csv)',
        params: z.object({ id: Id }),
        querystring: ReportQuery,
        body: AnalyzeBody,
        response: { 200: fileResponse('application/pdf'), 400: ErrorBody, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request, reply) => {
      const result = await runAnalysis(db, clock, request.user, request.params.id, request.body);
      const name = `${result.analysisName} ${result.roles.map((r) => r.sampleName).join(' ')}`.replace(/[^\w.#-]+/g, '_');
      if (request.query.format === 'csv') return sendAttachment(reply, `${name}.csv`, 'text/csv; charset=utf-8', analysisResultCsv(result));
      // The laboratory's name and verbal scale, the profiles' kits, reviewers, parties and items, the frequencies used.
      const facts = await loadReportFacts(db, { organizationId: null, profileIds: result.roles.map((r) => r.profileId), populationIds: result.populations.map((p) => p.populationId) });
      return sendAttachment(reply, `${name}.pdf`, 'application/pdf', await renderPdf(analysisResultDocument(result, auditActor(request.user).name, facts)));
    },
  );
};
