import { asc, eq } from 'drizzle-orm';
import type { ProfileSearchRules } from '../../core/schemas/search-rules';
import type { SearchTrigger } from '../../core/schemas/search-rules';
import type { Db } from '../db/database';
import { searchRules } from '../db/schema';

/** The active rules that search a profile of this sample type when it is approved or on request, and those whose searches look at it. */
export async function profileSearchRules(db: Db, sampleType: string): Promise<ProfileSearchRules> {
  const rows = await db.select().from(searchRules).where(eq(searchRules.active, true)).orderBy(asc(searchRules.name));
  const ref = (r: (typeof rows)[number]) => ({ id: r.id, name: r.name, trigger: r.trigger as SearchTrigger });
  return {
    sampleType,
    searching: rows.filter((r) => r.searchingSampleTypes.includes(sampleType)).map(ref),
    searchedBy: rows.filter((r) => r.trigger === 'approval' && r.searchedSampleTypes.includes(sampleType)).map(ref),
  };
}
