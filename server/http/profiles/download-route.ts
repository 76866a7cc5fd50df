import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorBody, Id } from '../../../core/schemas/common';
import { defaultSubmitter, profilesToCmf, profilesToCsv } from '../../exports/profiles';
import { CmfDownloadChoices } from '../../../core/schemas/cmf-download';
import type { RouteDeps } from '../route-deps';
import { fileResponse, sendAttachment } from '../content-disposition';
import { findVisibleProfile } from './profile-query';
import { CMF_NOTICE_HEADER, cmfHeightsNotice } from '../../../core/schemas/replicates';
import { profileSnapshot } from './profile-snapshot';

const DownloadQuery = z.object({
  format: z.enum(['cmf', 'csv']).default('cmf'),
  // CMF only: what to write instead of what the profile holds (core/schemas/cmf-download.ts, the SPA's dialog too).
  ...CmfDownloadChoices.partial().shape,
});

/** …/download (spec 7.1): a profile as CODIS CMF 3.2 XML or as CSV (one row per marker). */
export const profileDownloadRoute: FastifyPluginAsyncZod<RouteDeps> = async (app, { db, clock }) => {
  app.get(
    '/profiles/:id/download',
    {
      config: { access: { entity: 'Profiles', verb: 'Read' } },
      schema: {
        tags: ['profiles'],
        summary: 'Download a profile as CMF XML (format=cmf, the default) or CSV (format=csv)',
        params: z.object({ id: Id }),
        querystring: DownloadQuery,
        response: { 200: fileResponse('application/xml'), 400: ErrorBody, 404: ErrorBody },
      },
    },
    async (request, reply) => {
      const { profile } = await findVisibleProfile(db, request.user, request.params.id);
      const snapshot = await profileSnapshot(db, profile.id);
      const exportable = [snapshot];
      const safeName = snapshot.profileId.replace(/[^\w.#-]+/g, '_');
      if (request.query.format === 'csv') return sendAttachment(reply, `${safeName}.csv`, 'text/csv; charset=utf-8', profilesToCsv(exportable));
      const { specimenCategory, specimenId, submitter } = request.query;
      const specimen = { ...snapshot, sampleType: specimenCategory ?? snapshot.sampleType, profileId: specimenId ?? snapshot.profileId };
      // CMF 3.2 has no place for peak heights: the download says it leaves them out rather than dropping them silently.
      const peaks = snapshot.replicates.reduce((n, r) => n + r.markers.reduce((k, m) => k + m.peaks.length, 0), 0);
      if (peaks > 0) reply.header(CMF_NOTICE_HEADER, cmfHeightsNotice(snapshot.replicates.length, peaks));
      const xml = profilesToCmf([specimen], { submitByUserId: submitter ?? defaultSubmitter(request.user.email), submitDateTime: clock.now(), sourceLab: snapshot.laboratoryName ?? '' });
      return sendAttachment(reply, `${safeName}.xml`, 'application/xml; charset=utf-8', xml);
    },
  );
};
