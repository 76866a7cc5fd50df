/**
 * The permission and scope rules of product-spec section 6, as one pure function.
 * The SPA uses `can` to show or hide; the server uses the same function to allow or refuse.
 */

export const ENTITIES = [
  'Organizations',
  'Users',
  'AccessGroups',
  'CaseTypes',
  'SampleSources',
  'Laboratories',
  'Markers',
  'YStrChemistries',
  'AutosomalChemistries',
  'Populations',
  'Cases',
  'Profiles',
  'Hits',
  'Analyses',
  'SearchRules',
  'EmailTemplates',
  'Citations',
  'TaskRequests',
  'Settings',
] as const;
export type Entity = (typeof ENTITIES)[number];

export const VERBS = ['Read', 'Add', 'Edit', 'Delete', 'Publish', 'Reset', 'ViewAudit', 'ChangeSettings'] as const;
export type Verb = (typeof VERBS)[number];

export const SCOPES = ['All', 'Organization'] as const;
export type Scope = (typeof SCOPES)[number];

/** Literal orgId meaning every organization the user may see (spec 2.1). */
export const ALL_ORGANIZATIONS = 'all';

export type PermissionMatrix = Partial<Record<Entity, readonly Verb[]>>;

/** What the rules need to know about the signed-in user; the server reads it from its own database. */
export interface Principal {
  isAdmin: boolean;
  scope: Scope | null;
  organizationIds: readonly string[];
  permissions: PermissionMatrix;
}

export interface PermissionContext {
  /** The organization the action concerns: an organization id or `all`. */
  orgId?: string;
}

/** Reference data that an administrator whose scope is not All may not read (spec 6). */
const READ_NEEDS_SCOPE_ALL: ReadonlySet<Entity> = new Set([
  'Organizations',
  'AccessGroups',
  'CaseTypes',
  'SampleSources',
  'Markers',
  'YStrChemistries',
]);

/** Reference data that only an administrator with scope All may add, change or delete (spec 6, and beyond it Analyses). */
const WRITE_NEEDS_ADMIN_ALL: ReadonlySet<Entity> = new Set([
  'AccessGroups',
  'Organizations',
  'CaseTypes',
  'SampleSources',
  'YStrChemistries',
  'AutosomalChemistries',
  'Markers',
  'Laboratories',
  'EmailTemplates',
  'Citations',
  // The search policy decides what every organization's profiles are searched against (ARCHITECTURE.md "Search policy").
  'SearchRules',
  // Analyses (their formulae, constants, pedigrees and mutation models) feed every organization's searches and court
  // reports: only an administrator with scope All writes them (issue 30, README "Decisions").
  'Analyses',
]);

const isAdminAll = (p: Principal) => p.isAdmin && p.scope === 'All';

/** Whether the principal may act on organization `orgId` at all (tenancy, spec 2.1 and 6). */
export function canReachOrganization(p: Principal, orgId: string): boolean {
  if (p.scope === 'All') return true;
  if (p.scope !== 'Organization' || orgId === ALL_ORGANIZATIONS) return false;
  return p.organizationIds.includes(orgId);
}

function granted(p: Principal, entity: Entity, verb: Verb): boolean {
  return p.permissions[entity]?.includes(verb) ?? false;
}

/** Spec section 6: may `p` perform `verb` on `entity` (optionally inside organization `ctx.orgId`)? */
export function can(p: Principal, entity: Entity, verb: Verb, ctx: PermissionContext = {}): boolean {
  if (p.scope === null) return false;
  if (ctx.orgId !== undefined && !canReachOrganization(p, ctx.orgId)) return false;

  if (entity === 'Citations' && verb === 'Read') return isAdminAll(p);
  if (WRITE_NEEDS_ADMIN_ALL.has(entity) && (verb === 'Add' || verb === 'Delete' || verb === 'Edit')) return isAdminAll(p);
  if (entity === 'Settings' && verb !== 'Read') return isAdminAll(p);
  if (entity === 'Settings' && verb === 'Read') return true;
  if (entity === 'Users' && verb === 'Delete') return p.isAdmin;
  if ((entity === 'Cases' || entity === 'Profiles') && verb === 'Delete') return isAdminAll(p) || granted(p, entity, verb);
  if (verb === 'ViewAudit' && p.isAdmin) return true;

  if (p.isAdmin) {
    if (verb === 'Read' && READ_NEEDS_SCOPE_ALL.has(entity)) return p.scope === 'All';
    return true;
  }
  return granted(p, entity, verb);
}

/** Administrator-only form options of spec 6 (lockout, receive-notifications, role choice). */
export const canSeeAdminUserOptions = (p: Principal): boolean => p.isAdmin;

/** Organization assignment on the user form: Users Edit and scope All (spec 6). */
export const canAssignOrganizations = (p: Principal): boolean => p.scope === 'All' && can(p, 'Users', 'Edit');

/** The network of laboratories (issue 32): service clients, instance settings and lower instances are an administrator with scope All's. */
export const canAdministerNetwork = (p: Principal): boolean => isAdminAll(p);
