import type { z } from 'zod';
import type { FrequencyTableInput } from '../../../core/schemas/pedigrees';
import type { Db } from '../../db/database';
import type { PopulationFrequencies } from '../../genetics/types';
import type { AuthenticatedUser } from '../../identity/load-principal';
import { loadEnginePopulation } from '../../matching/engine-population';
import { BadRequest } from '../errors';
import { findVisiblePopulation } from './visibility';

/**
 * The frequencies a calculation call names: a stored autosomal population the user may read, or the table given in
 * the request (as a reference program would be given it) — exactly one. `purpose` completes the refusal of a Y-STR one.
 */
export async function requestPopulation(
  db: Db,
  user: AuthenticatedUser,
  body: { populationId?: string | undefined; frequencies?: z.infer<typeof FrequencyTableInput> | undefined },
  purpose: string,
): Promise<{ id: string | null; frequencies: PopulationFrequencies }> {
  if ((body.populationId === undefined) === (body.frequencies === undefined)) throw new BadRequest('Give either populationId or frequencies, not both and not neither.');
  if (body.populationId !== undefined) {
    const population = await findVisiblePopulation(db, user, body.populationId);
    if (population.kind !== 'Autosomal') throw new BadRequest(`Population ${population.name} holds Y-STR haplotypes; ${purpose} needs autosomal frequencies.`);
    return { id: population.id, frequencies: (await loadEnginePopulation(db, population)).frequencies };
  }
  const table = body.frequencies!;
  const markers = new Map(table.markers.map((m) => [m.marker, { frequencies: new Map(m.alleles.map((a) => [a.allele, a.frequency])), sampleSize: m.sampleSize }]));
  if (markers.size !== table.markers.length) throw new BadRequest('Each marker appears once in the frequencies.');
  return { id: null, frequencies: { name: 'Frequencies given in the request', minimumAlleleFrequency: table.minimumAlleleFrequency, markers } };
}
