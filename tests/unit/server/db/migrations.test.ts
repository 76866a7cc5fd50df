import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { databaseEngines } from '../../../helpers/database';

const engines = await databaseEngines();

describe('migrations', () => {
  it('runs on PostgreSQL as well as PGlite on this machine', () => {
    // CI provides PostgreSQL (.ci/run); a silent fall-back to PGlite alone would hide the PostgreSQL path.
    if (process.env.CI) expect(engines.map((e) => e.name)).toContain('PostgreSQL');
    expect(engines.map((e) => e.name)).toContain('PGlite');
  });

  it.each(engines)('create every table on $name and can be applied twice', async ({ open }) => {
    const database = await open();
    try {
      await database.migrate();
      const result: unknown = await database.db.execute(
        sql`select table_name from information_schema.tables where table_schema = 'public' order by table_name`,
      );
      const rows = (result as { rows: { table_name: string }[] }).rows;
      expect(rows.map((r) => r.table_name)).toEqual([
        'access_group_permissions',
        'access_groups',
        'access_tokens',
        'agency_files',
        'analyses',
        'analysis_constants',
        'analysis_formulae',
        'analysis_groups',
        'audit_log',
        'candidate_match_notices',
        'candidate_matches',
        'case_assigned_users',
        'case_name_versions',
        'case_types',
        'cases',
        'chemistries',
        'chemistry_markers',
        'citations',
        'email_outbox',
        'email_templates',
        'families',
        'foreign_queries',
        'foreign_query_releases',
        'held_profiles',
        'hit_history',
        'hit_profiles',
        'hits',
        'identity_keys',
        'instance_settings',
        'involved_parties',
        'kit_alleles',
        'kit_markers',
        'kit_thresholds',
        'laboratories',
        'lower_instance_organizations',
        'lower_instances',
        'markers',
        'network_applied_entries',
        'network_batches',
        'oidc_payloads',
        'organizations',
        'password_links',
        'physical_items',
        'population_alleles',
        'population_haplotypes',
        'population_markers',
        'population_organizations',
        'populations',
        'profile_import_rows',
        'profile_imports',
        'profile_replicates',
        'profiles',
        'row_counts',
        'sample_sources',
        'search_rule_populations',
        'search_rules',
        'service_clients',
        'settings',
        'task_requests',
        'upload_eligibility_indexes',
        'upload_outbox',
        'upload_outbox_counts',
        'user_organizations',
        'users',
      ]);
    } finally {
      await database.close();
    }
  });
});
