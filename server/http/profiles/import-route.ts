import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorBody } from '../../../core/schemas/common';
import { APPROVAL_TOKEN_HEADER, ProfileImportResult } from '../../../core/schemas/profiles';
import type { ApprovalTokens } from '../../imports/approval-token';
import { runParse } from '../../imports/profile-jobs';
import type { RouteDeps } from '../route-deps';
import { BadRequest } from '../errors';
import { approvalExpiry, jobView, uploadImport } from '../profile-imports/routes';

/**
 * POST /profiles/import (spec 7.1, ARCHITECTURE.md "Calls"): parses an uploaded profile file and saves
 * nothing to any case. The body is the parsed profiles with their problems; the `Approval-Token`
 * header approves adding exactly these, once, by this user (and for the case named in the form's
 * `caseId`, when sent). The file is read in a worker thread; the profiles' JSON is written there too,
 * so a 100,000-profile file does not hold the event loop (issue 13).
 */
export function profileImportRoute(tokens: ApprovalTokens): FastifyPluginAsyncZod<RouteDeps> {
  return async (app, { db, clock }) => {
    app.post(
      '/profiles/import',
      {
        config: { access: { entity: 'Profiles', verb: 'Add' } },
        schema: {
          tags: ['profiles'],
          summary: 'Parse a profile file (CMF XML, GeneMapper, CSV; multipart: file, optional caseId) for preview; the Approval-Token header approves adding what it returns',
          consumes: ['multipart/form-data'],
          response: { 200: ProfileImportResult, 400: ErrorBody, 404: ErrorBody, 413: ErrorBody },
        },
      },
      async (request, reply) => {
        const { job, upload } = await uploadImport(db, request, request.user);
        const { outcome, row } = await runParse(db, job, upload, { withBody: true, approvalExpiresAt: () => approvalExpiry(clock) });
        if (!outcome) throw new BadRequest(row.message);
        const { job: view, token } = jobView(tokens, row, clock.now());
        if (token) reply.header(APPROVAL_TOKEN_HEADER, token);
        const head: Omit<ProfileImportResult, 'profiles'> = {
          fileName: view.fileName,
          format: view.format,
          errors: view.errors,
          warnings: view.warnings,
          suggestedChemistryId: view.suggestedChemistryId,
          approvalExpiresAt: view.approvalExpiresAt ?? new Date(0).toISOString(),
          importId: view.id,
          controls: view.controls,
        };
        // The profiles arrive as JSON bytes from the worker: spliced in, never parsed and re-serialised here.
        const json = JSON.stringify(head);
        const body = Buffer.concat([Buffer.from(`${json.slice(0, -1)},"profiles":`), outcome.body ?? Buffer.from('[]'), Buffer.from('}')]);
        // A Buffer goes out as it is (Fastify serialises only objects).
        return reply.type('application/json; charset=utf-8').send(body as unknown as ProfileImportResult);
      },
    );
  };
}
