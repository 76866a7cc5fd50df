import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { can } from '../../../core/permissions';
import { ErrorBody } from '../../../core/schemas/common';
import { PedigreeLrBody, PedigreeLrResult, type MutationModelInput } from '../../../core/schemas/pedigrees';
import type { Db } from '../../db/database';
import { describeMutationModel, MutationModelError, PedigreeError, pedigreeLr, type MutationModels } from '../../genetics/pedigree';
import type { Genotype } from '../../genetics/types';
import type { AuthenticatedUser } from '../../identity/load-principal';
import { BadRequest, Forbidden } from '../errors';
import { requestPopulation } from '../populations/request-population';
import { readMarkerValues } from '../profiles/marker-values';
import { findVisibleProfile } from '../profiles/profile-query';
import type { RouteDeps } from '../route-deps';

/** Each typed person's genotype per marker: from a stored profile the user may read, or as written in the request. */
async function typedGenotypes(db: Db, user: AuthenticatedUser, body: PedigreeLrBody): Promise<Map<string, Map<string, Genotype>>> {
  const byPerson = new Map<string, Map<string, Genotype>>();
  for (const entry of body.typed) {
    if (byPerson.has(entry.person)) throw new BadRequest(`${entry.person} is typed twice; give each person once.`);
    if ('profileId' in entry) {
      if (!can(user, 'Profiles', 'Read')) throw new Forbidden();
      const { profile } = await findVisibleProfile(db, user, entry.profileId);
      if (profile.kind !== 'Autosomal') throw new BadRequest(`${entry.person}: profile ${profile.profileId} is a Y-STR profile; a pedigree needs autosomal profiles.`);
      byPerson.set(entry.person, new Map((await readMarkerValues(db, profile.id)).map((v) => [v.marker, v.alleles])));
    } else byPerson.set(entry.person, new Map(entry.markers.map((m) => [m.marker, m.alleles])));
  }
  return byPerson;
}

/**
 * The LR of two pedigrees over the same typed persons (GENETICS.md "Pedigrees", "Mutation models"): per marker the
 * typed genotypes, the alleles and frequencies used, both sexes' mutation models, the likelihoods, the LR and the
 * verdict; markers without frequencies, or where a person holds more than two alleles, are listed as skipped.
 */
export async function runPedigreeLr(db: Db, user: AuthenticatedUser, body: PedigreeLrBody): Promise<PedigreeLrResult> {
  const population = await requestPopulation(db, user, body, 'a pedigree');
  const byPerson = await typedGenotypes(db, user, body);
  const markerNames = [...new Set([...byPerson.values()].flatMap((g) => [...g.keys()]))];
  const genotypes = new Map<string, Map<string, Genotype>>();
  const skipped: string[] = [];
  for (const marker of markerNames) {
    const typed = new Map([...byPerson].flatMap(([person, g]) => (g.has(marker) ? [[person, g.get(marker)!] as const] : [])));
    if (!population.frequencies.markers.has(marker) || [...typed.values()].some((g) => g.length > 2)) skipped.push(marker);
    else genotypes.set(marker, typed);
  }
  const modelsOf = (marker: string): MutationModels => {
    const own = body.mutation.markers.find((m) => m.marker === marker);
    return (own ?? body.mutation) as { female: MutationModelInput; male: MutationModelInput };
  };
  let result: ReturnType<typeof pedigreeLr>;
  try {
    result = pedigreeLr(body.h1, body.h2, genotypes, population.frequencies, modelsOf);
  } catch (error) {
    if (error instanceof PedigreeError || error instanceof MutationModelError) throw new BadRequest(error.message);
    throw error;
  }
  return {
    h1: body.h1,
    h2: body.h2,
    population: { id: population.id, name: population.frequencies.name, minimumAlleleFrequency: population.frequencies.minimumAlleleFrequency },
    markers: result.markers.map((m) => {
      const models = modelsOf(m.marker) as { female: MutationModelInput; male: MutationModelInput };
      return {
        marker: m.marker,
        genotypes: body.typed.flatMap((t) => (genotypes.get(m.marker)!.has(t.person) ? [{ person: t.person, alleles: [...genotypes.get(m.marker)!.get(t.person)!] }] : [])),
        alleles: m.alleles,
        frequencies: m.frequencies,
        mutation: { female: models.female, male: models.male, text: `female: ${describeMutationModel(models.female)}; male: ${describeMutationModel(models.male)}` },
        likelihoodH1: m.likelihoodH1,
        likelihoodH2: m.likelihoodH2,
        lr: m.lr,
        log10: m.lr > 0 ? Math.log10(m.lr) : null,
        verdict: m.verdict,
      };
    }),
    skippedMarkers: skipped,
    lr: result.lr,
    log10: Number.isFinite(result.log10Lr) ? result.log10Lr : null,
  };
}

/** POST pedigree-lr (issue 16): the LR of two pedigrees; stores nothing. Every parameter is in the request and the answer. */
export const pedigreeLrRoute: FastifyPluginAsyncZod<RouteDeps> = async (app, { db }) => {
  app.post(
    '/pedigree-lr',
    {
      config: { access: { entity: 'Analyses', verb: 'Read' } },
      schema: {
        tags: ['analyses'],
        summary: 'The likelihood ratio of two pedigrees over typed persons, per marker and in total, with mutation models',
        body: PedigreeLrBody,
        response: { 200: PedigreeLrResult, 400: ErrorBody, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (request) => runPedigreeLr(db, request.user, request.body),
  );
};
