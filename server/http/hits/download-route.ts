import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { ErrorBody, Id } from '../../../core/schemas/common';
import { analyses, citations } from '../../db/schema';
import { hitReportDocument } from '../../reports/hit-report';
import { renderPdf } from '../../reports/pdf';
import { loadReportFacts } from '../../reports/report-facts';
import { auditActor } from '../audit-actor';
import { fileResponse, sendAttachment } from '../content-disposition';
import type { RouteDeps } from '../route-deps';
import { buildHitView } from './hit-view';

/** GET hits/{id}/download (spec 7.1, ARCHITECTURE.md "Calls": a hit downloads as a PDF report). */
export const hitDownloadRoute: FastifyPluginAsyncZod<RouteDeps> = async (app, { db, clock }) => {
  app.get(
    '/hits/:id/download',
    {
      config: { access: { entity: 'Hits', verb: 'Read' } },
      schema: { tags: ['hits'], summary: 'The hit as a PDF report a laboratory can file', params: z.object({ id: Id }), response: { 200: fileResponse('application/pdf'), 404: ErrorBody } },
    },
    async (request, reply) => {
      const view = await buildHitView(db, clock, request.user, request.params.id);
      // The laboratory's name and verbal scale, the profiles' kits, reviewers, parties and items, the frequencies used.
      const facts = await loadReportFacts(db, { organizationId: view.hit.organizationId, profileIds: view.hit.profiles.map((p) => p.profileId), populationIds: view.population ? [view.population.id] : [] });
      const cited = await db.select({ title: citations.title }).from(citations).orderBy(asc(citations.title));
      // A hit weighed through a pedigree (a family's; a pairwise analysis with a mutation model) prints it: persons and diagram.
      const [analysis] = await db.select({ pedigree: analyses.pedigree, mutation: analyses.mutation, kind: analyses.kind }).from(analyses).where(eq(analyses.id, view.hit.analysisId));
      const pedigree = analysis && (analysis.kind === 'Pedigree' || analysis.mutation) ? (analysis.pedigree ?? null) : null;
      const document = hitReportDocument(view, { organizationName: facts.organizationName, facts, preparedBy: auditActor(request.user).name, preparedAt: clock.now(), citations: cited.map((c) => c.title), pedigree });
      const name = `Hit ${view.analysis.name} ${view.hit.profiles.map((p) => p.sampleName).join(' ')}`.replace(/[^\w.#-]+/g, '_');
      return sendAttachment(reply, `${name}.pdf`, 'application/pdf', await renderPdf(document));
    },
  );
};
