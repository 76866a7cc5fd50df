import { describe, expect, it } from 'vitest';
import { can, canAssignOrganizations, canReachOrganization, type Principal } from '../../../core/permissions';

const ORG_A = '11111111-1111-4111-8111-111111111111';
const ORG_B = '22222222-2222-4222-8222-222222222222';

const adminAll: Principal = { isAdmin: true, scope: 'All', organizationIds: [], permissions: {} };
const adminOrg: Principal = { isAdmin: true, scope: 'Organization', organizationIds: [ORG_A], permissions: {} };
const reader: Principal = {
  isAdmin: false,
  scope: 'Organization',
  organizationIds: [ORG_A],
  permissions: { Cases: ['Read'], Profiles: ['Read'], Hits: ['Read'], Markers: ['Read'] },
};
const noScope: Principal = { ...adminAll, scope: null };

describe('organization scope (spec 2.1, 6)', () => {
  it('lets scope All reach every organization and `all`', () => {
    expect(canReachOrganization(adminAll, ORG_B)).toBe(true);
    expect(canReachOrganization(adminAll, 'all')).toBe(true);
  });
  it('keeps an organization-scoped user inside their own organizations, and out of `all`', () => {
    expect(canReachOrganization(reader, ORG_A)).toBe(true);
    expect(canReachOrganization(reader, ORG_B)).toBe(false);
    expect(canReachOrganization(reader, 'all')).toBe(false);
    expect(can(reader, 'Cases', 'Read', { orgId: ORG_B })).toBe(false);
    expect(can(reader, 'Cases', 'Read', { orgId: ORG_A })).toBe(true);
  });
  it('refuses everything to a user without a scope', () => {
    expect(can(noScope, 'Cases', 'Read')).toBe(false);
  });
});

describe('role rules (spec 6)', () => {
  it('lets an administrator pass ordinary checks without explicit grants', () => {
    expect(can(adminAll, 'Hits', 'Publish')).toBe(true);
    expect(can(adminOrg, 'Cases', 'Add', { orgId: ORG_A })).toBe(true);
  });
  it('denies reference-data reads to an administrator whose scope is not All', () => {
    for (const entity of ['Organizations', 'AccessGroups', 'CaseTypes', 'SampleSources', 'Markers', 'YStrChemistries'] as const) {
      expect(can(adminOrg, entity, 'Read')).toBe(false);
      expect(can(adminAll, entity, 'Read')).toBe(true);
    }
  });
  it('keeps adding and deleting reference data to an administrator with scope All', () => {
    for (const entity of ['AccessGroups', 'Organizations', 'Markers', 'Laboratories', 'EmailTemplates', 'Citations'] as const) {
      expect(can(adminAll, entity, 'Add')).toBe(true);
      expect(can(adminOrg, entity, 'Add')).toBe(false);
      expect(can(adminOrg, entity, 'Delete')).toBe(false);
    }
  });
  it('lets only an administrator with scope All write analyses, as search rules (issue 30)', () => {
    const analyst: Principal = { isAdmin: false, scope: 'Organization', organizationIds: [ORG_A], permissions: { Analyses: ['Read', 'Add', 'Edit', 'Delete'] } };
    for (const verb of ['Add', 'Edit', 'Delete'] as const) {
      expect(can(adminAll, 'Analyses', verb)).toBe(true);
      expect(can(adminOrg, 'Analyses', verb)).toBe(false);
      expect(can(analyst, 'Analyses', verb)).toBe(false);
    }
    expect(can(adminOrg, 'Analyses', 'Read')).toBe(true);
  });
  it('shows citations only to an administrator with scope All', () => {
    expect(can(adminAll, 'Citations', 'Read')).toBe(true);
    expect(can(adminOrg, 'Citations', 'Read')).toBe(false);
    expect(can({ ...reader, permissions: { Citations: ['Read'] } }, 'Citations', 'Read')).toBe(false);
  });
  it('lets only an administrator with scope All edit About and Contact', () => {
    expect(can(adminAll, 'Settings', 'Edit')).toBe(true);
    expect(can(adminOrg, 'Settings', 'Edit')).toBe(false);
    expect(can(reader, 'Settings', 'Read')).toBe(true);
  });
  it('deletes cases and profiles with the Delete right or as administrator with scope All', () => {
    expect(can(reader, 'Cases', 'Delete')).toBe(false);
    expect(can({ ...reader, permissions: { Cases: ['Delete'] } }, 'Cases', 'Delete')).toBe(true);
    expect(can(adminAll, 'Profiles', 'Delete')).toBe(true);
  });
  it('lets administrators delete users and view audit trails', () => {
    expect(can(adminOrg, 'Users', 'Delete')).toBe(true);
    expect(can(reader, 'Users', 'Delete')).toBe(false);
    expect(can(adminOrg, 'Cases', 'ViewAudit')).toBe(true);
    expect(can(reader, 'Cases', 'ViewAudit')).toBe(false);
  });
  it('gives a non-administrator exactly the verbs of their access group', () => {
    expect(can(reader, 'Hits', 'Read')).toBe(true);
    expect(can(reader, 'Hits', 'Publish')).toBe(false);
    expect(can(reader, 'Profiles', 'Edit')).toBe(false);
  });
  it('shows organization assignment with Users Edit and scope All only', () => {
    expect(canAssignOrganizations(adminAll)).toBe(true);
    expect(canAssignOrganizations(adminOrg)).toBe(false);
  });
});
