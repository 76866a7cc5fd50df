import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../server/db/database';
import { populationOrganizations, populations } from '../../server/db/schema';

/** A casework population (the synthetic one's frequencies) shared with the organizations: a stain's rarity and a hit's LR need one. */
export async function caseworkPopulation(db: Db, organizationIds: readonly string[]): Promise<void> {
  const [synthetic] = await db.select().from(populations).where(eq(populations.synthetic, true));
  const [population] = await db.insert(populations).values({ name: 'Casework', kind: 'Autosomal', statisticsUploadedAt: new Date() }).returning();
  await db.execute(sql`insert into population_markers (population_id, marker_id, sample_size) select ${population!.id}, marker_id, sample_size from population_markers where population_id = ${synthetic!.id}`);
  await db.execute(sql`insert into population_alleles (population_id, marker_id, allele, frequency) select ${population!.id}, marker_id, allele, frequency from population_alleles where population_id = ${synthetic!.id}`);
  for (const organizationId of organizationIds) await db.insert(populationOrganizations).values({ populationId: population!.id, organizationId });
}
