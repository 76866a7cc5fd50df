import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../server/db/database';

/** The rows of a raw `execute`. */
export const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/**
 * An organization 'Lab', a case type, a case 'C-1' and a chemistry, written in plain SQL as any schema version
 * since 0007 takes them (migration tests write data before the migration under test). `one` runs a query for its first row.
 */
export async function rawCaseRows(db: Db, chemistry: { name: string; kind: 'Autosomal' | 'YStr' } = { name: 'GlobalFiler', kind: 'Autosomal' }) {
  const one = async <T>(query: SQL) => rowsOf<T>(await db.execute(query))[0]!;
  const org = await one<{ id: string }>(sql`insert into organizations (name) values ('Lab') returning id`);
  const caseType = await one<{ id: string }>(sql`insert into case_types (name) values ('Homicide') returning id`);
  const addCase = async (caseNumber: string) => (await one<{ id: string }>(sql`insert into cases (case_number, case_type_id, organization_id) values (${caseNumber}, ${caseType.id}, ${org.id}) returning id`)).id;
  const caseId = await addCase('C-1');
  const addChemistry = async (name: string, kind: 'Autosomal' | 'YStr') => (await one<{ id: string }>(sql`insert into chemistries (name, kind) values (${name}, ${kind}) returning id`)).id;
  const chemistryId = await addChemistry(chemistry.name, chemistry.kind);
  return { one, orgId: org.id, caseTypeId: caseType.id, caseId, addCase, chemistryId, addChemistry };
}
