import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { eq } from 'drizzle-orm';
import { ErrorBody } from '../../../core/schemas/common';
import { APPROVAL_TOKEN_HEADER, ProfileImportResult, type ProfileKind } from '../../../core/schemas/profiles';
import type { Db } from '../../db/database';
import { chemistries, chemistryMarkers } from '../../db/schema';
import type { ApprovalTokens } from '../../imports/approval-token';
import { parseProfileFile } from '../../imports/profiles';
import type { RouteDeps } from '../route-deps';
import { BadRequest } from '../errors';
import { loadMarkerCatalogue } from '../marker-catalogue';
import { readMultipartForm } from '../multipart-form';

/** The chemistry of `kind` whose kit holds most of the imported markers (fewest missing as the tie-break), or null. */
async function suggestChemistry(db: Db, kind: ProfileKind, markerIds: ReadonlySet<string>): Promise<string | null> {
  if (markerIds.size === 0) return null;
  const rows = await db
    .select({ id: chemistries.id, markerId: chemistryMarkers.markerId })
    .from(chemistries)
    .innerJoin(chemistryMarkers, eq(chemistryMarkers.chemistryId, chemistries.id))
    .where(eq(chemistries.kind, kind));
  const kits = new Map<string, string[]>();
  for (const r of rows) kits.set(r.id, [...(kits.get(r.id) ?? []), r.markerId]);
  let best: { id: string; covered: number; missing: number } | null = null;
  for (const [id, kit] of kits) {
    const covered = kit.filter((m) => markerIds.has(m)).length;
    const missing = markerIds.size - covered;
    if (covered > 0 && (!best || covered > best.covered || (covered === best.covered && kit.length < best.missing))) best = { id, covered, missing: kit.length };
  }
  return best?.id ?? null;
}

/**
 * POST /profiles/import (ARCHITECTURE.md "Calls"): parses an uploaded profile file and saves
 * nothing. The body is the parsed profiles with their problems; the `Approval-Token` header binds
 * exactly these profiles to this user for a limited time, to be sent back when adding them.
 */
export function profileImportRoute(tokens: ApprovalTokens): FastifyPluginAsyncZod<RouteDeps> {
  return async (app, { db }) => {
    app.post(
      '/profiles/import',
      {
        config: { access: { entity: 'Profiles', verb: 'Add' } },
        schema: {
          tags: ['profiles'],
          summary: 'Parse a profile file (CMF XML, GeneMapper, CSV) for preview; the Approval-Token header approves adding what it returns',
          consumes: ['multipart/form-data'],
          response: { 200: ProfileImportResult, 400: ErrorBody, 413: ErrorBody },
        },
      },
      async (request, reply) => {
        const { file } = await readMultipartForm(request);
        if (!file || file.bytes.length === 0) throw new BadRequest('Choose a file to import');
        const catalogue = await loadMarkerCatalogue(db);
        const parsed = await parseProfileFile({ fileName: file.fileName, bytes: new Uint8Array(file.bytes) }, catalogue.resolve);
        const profiles = parsed.profiles.map(({ line: _line, ...p }) => p);
        const kinds = new Set(profiles.map((p) => p.kind));
        const kind: ProfileKind = kinds.size === 1 ? [...kinds][0]! : 'Autosomal';
        const markerIds = new Set(profiles.filter((p) => p.kind === kind).flatMap((p) => p.markerValues.map((m) => m.markerId)));
        const { token, expiresAt } = tokens.issue(request.user.id, profiles);
        reply.header(APPROVAL_TOKEN_HEADER, token);
        return {
          fileName: file.fileName,
          format: parsed.format,
          profiles,
          errors: parsed.errors,
          warnings: parsed.warnings,
          suggestedChemistryId: await suggestChemistry(db, kind, markerIds),
          approvalExpiresAt: expiresAt.toISOString(),
        };
      },
    );
  };
}
