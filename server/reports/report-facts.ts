import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/database';
import { cases, chemistries, involvedParties, organizations, physicalItems, populations, profiles, users } from '../db/schema';
import { alleleFrequency } from '../genetics/statistics/allele-frequency';
import type { PopulationFrequencies } from '../genetics/types';
import { loadEnginePopulation } from '../matching/engine-population';

/**
 * What a report states besides the figures (issue 18, ISO 17025 7.8.2 and FBI QAS 11): per profile its kit, who
 * entered it and who approved it (the second person of four-eyes review), the involved party it was taken from
 * and the item with its collection; the laboratory and its verbal scale; per population the allele frequencies
 * used and the sample size N.
 */
export interface ProfileFacts {
  profileId: string;
  sampleName: string;
  caseNumber: string;
  kind: string;
  kit: string;
  sampleType: string;
  status: string;
  enteredBy: string | null;
  enteredAt: Date;
  reviewedBy: string | null;
  reviewedAt: Date | null;
  party: { title: string; role: string; name: string; identifiers: { kind: string; value: string }[] } | null;
  item: { itemId: string; description: string; collectedAt: Date | null; collectionPlace: string; collectedBy: string } | null;
}

/** A population's frequencies as the engine reads them: the value used (minimum allele frequency applied) and N. */
export interface PopulationFacts {
  id: string;
  name: string;
  /** The frequency the engine used for an allele of a marker (NRC II 4.10 minimum applied). */
  frequency(marker: string, allele: string): number;
  /** The marker's sample size N (individuals typed), null when the source gives none. */
  sampleSize(marker: string): number | null;
  /** Whether the population lists the allele at all (else the minimum was used). */
  observed(marker: string, allele: string): boolean;
}

export interface ReportFacts {
  organizationName: string;
  verbalScale: string;
  profiles: ProfileFacts[];
  populations: Map<string, PopulationFacts>;
}

const fullName = (u: { firstName: string | null; lastName: string | null; email: string | null } | undefined) =>
  u ? `${u.firstName ?? ''} ${u.lastName ?? ''}`.trim() || u.email : null;

function populationFacts(id: string, frequencies: PopulationFrequencies): PopulationFacts {
  return {
    id,
    name: frequencies.name,
    frequency: (marker, allele) => alleleFrequency(frequencies, marker, allele),
    sampleSize: (marker) => frequencies.markers.get(marker)?.sampleSize ?? null,
    observed: (marker, allele) => frequencies.markers.get(marker)?.frequencies.has(allele) ?? false,
  };
}

/** The facts of a report on these profiles (in this order) and populations, for the organization that issues it (null: the first profile's). */
export async function loadReportFacts(db: Db, request: { organizationId: string | null; profileIds: readonly string[]; populationIds: readonly string[] }): Promise<ReportFacts> {
  const rows = request.profileIds.length === 0 ? [] : await db
    .select({ profile: profiles, caseNumber: cases.caseNumber, kit: chemistries.name, party: involvedParties, item: physicalItems })
    .from(profiles)
    .innerJoin(cases, eq(cases.id, profiles.caseId))
    .innerJoin(chemistries, eq(chemistries.id, profiles.chemistryId))
    .leftJoin(involvedParties, eq(involvedParties.id, profiles.involvedPartyId))
    .leftJoin(physicalItems, eq(physicalItems.id, profiles.physicalItemId))
    .where(inArray(profiles.id, [...request.profileIds]));
  // The calculator's report is the organization's of its first profile (the evidence, the tested person).
  const organizationId = request.organizationId ?? rows.find((r) => r.profile.id === request.profileIds[0])?.profile.organizationId ?? null;
  const [organization] = organizationId
    ? await db.select({ name: organizations.name, verbalScale: organizations.verbalScale }).from(organizations).where(eq(organizations.id, organizationId))
    : [];
  const people = [...new Set(rows.flatMap((r) => [r.profile.enteredBy, r.profile.reviewedBy]).filter((id): id is string => id !== null))];
  const names = new Map(
    (people.length === 0 ? [] : await db.select({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email }).from(users).where(inArray(users.id, people))).map((u) => [u.id, fullName(u)]),
  );
  const byId = new Map(rows.map((r) => [r.profile.id, r]));
  const facts = request.profileIds.flatMap((id): ProfileFacts[] => {
    const r = byId.get(id);
    if (!r) return [];
    const { profile } = r;
    // Another laboratory's profile (a database search's hit) names its sample and case only: its parties and items stay theirs.
    const own = profile.organizationId === organizationId;
    const party = own ? r.party : null;
    const item = own ? r.item : null;
    return [
      {
        profileId: profile.id,
        sampleName: profile.profileId,
        caseNumber: r.caseNumber,
        kind: profile.kind,
        kit: r.kit,
        sampleType: profile.sampleType,
        status: profile.status,
        enteredBy: profile.enteredBy ? (names.get(profile.enteredBy) ?? null) : null,
        enteredAt: profile.createdAt,
        reviewedBy: profile.reviewedBy ? (names.get(profile.reviewedBy) ?? null) : null,
        reviewedAt: profile.reviewedAt,
        party: party ? { title: party.title, role: party.role, name: party.name, identifiers: party.identifiers } : null,
        item: item ? { itemId: item.itemId, description: item.description, collectedAt: item.collectedAt, collectionPlace: item.collectionPlace, collectedBy: item.collectedBy } : null,
      },
    ];
  });
  const populationRows = request.populationIds.length === 0 ? [] : await db.select().from(populations).where(inArray(populations.id, [...request.populationIds]));
  const loaded = await Promise.all(populationRows.map(async (p) => [p.id, populationFacts(p.id, (await loadEnginePopulation(db, p)).frequencies)] as const));
  return { organizationName: organization?.name ?? '', verbalScale: organization?.verbalScale ?? 'enfsi-2015', profiles: facts, populations: new Map(loaded) };
}
