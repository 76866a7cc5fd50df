/**
 * The signed-in user's claims (product-spec section 3) and the sign-in checks of section 5.
 * `permissions` is a JSON string {Name, IsAdmin, Permissions}; Permissions is itself a JSON string
 * mapping a resource name to flags {Read, Add, Edit, Delete, Publish, Reset, ViewAudit, …}.
 */
import { ENTITIES, SCOPES, VERBS, type Entity, type PermissionMatrix, type Principal, type Scope, type Verb } from './permissions';

export const NO_PERMISSIONS_MESSAGE =
  'No permissions found. Contact your administrator and ask them to assign an access group to your account.';
export const NO_SCOPE_MESSAGE = 'No scope is set. Contact your administrator and ask them to assign scope to your account.';

/** The custom OAuth scope that grants the Locus API (spec 7.2). */
export const API_SCOPE = 'access';
export const SIGN_IN_SCOPES = 'openid email profile offline_access access';

export interface LocusClaims {
  sub: string;
  permissions?: string;
  ScopeLevel?: string;
  organization?: string[];
}

type Flags = Partial<Record<Verb, boolean>>;

/** Encodes a role as the `permissions` claim: JSON {Name, IsAdmin, Permissions: JSON string}. */
export function encodePermissionsClaim(name: string, isAdmin: boolean, matrix: PermissionMatrix): string {
  const flags: Record<string, Flags> = {};
  for (const [entity, verbs] of Object.entries(matrix)) {
    if (!verbs || verbs.length === 0) continue;
    flags[entity] = Object.fromEntries(verbs.map((v) => [v, true]));
  }
  return JSON.stringify({ Name: name, IsAdmin: isAdmin, Permissions: JSON.stringify(flags) });
}

function parseJsonObject(text: unknown): Record<string, unknown> | null {
  if (typeof text !== 'string') return typeof text === 'object' && text !== null ? (text as Record<string, unknown>) : null;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function decodeMatrix(raw: unknown): PermissionMatrix {
  const parsed = parseJsonObject(raw) ?? {};
  const matrix: PermissionMatrix = {};
  for (const entity of ENTITIES) {
    const flags = parseJsonObject(parsed[entity]);
    if (!flags) continue;
    const verbs = VERBS.filter((v) => flags[v] === true);
    if (verbs.length > 0) matrix[entity as Entity] = verbs;
  }
  return matrix;
}

export interface SignedInUser extends Principal {
  id: string;
  roleName: string;
}

export type ClaimsCheck = { ok: true; user: SignedInUser } | { ok: false; error: string };

/** Spec 5 sign-in checks: permissions present unless administrator; a scope level present. */
export function checkClaims(claims: LocusClaims): ClaimsCheck {
  const role = parseJsonObject(claims.permissions);
  const isAdmin = role?.IsAdmin === true;
  const permissions = decodeMatrix(role?.Permissions);
  if (!isAdmin && Object.keys(permissions).length === 0) return { ok: false, error: NO_PERMISSIONS_MESSAGE };
  const scope = SCOPES.find((s) => s === claims.ScopeLevel) as Scope | undefined;
  if (!scope) return { ok: false, error: NO_SCOPE_MESSAGE };
  return {
    ok: true,
    user: {
      id: claims.sub,
      roleName: typeof role?.Name === 'string' ? role.Name : '',
      isAdmin,
      scope,
      organizationIds: Array.isArray(claims.organization) ? claims.organization : [],
      permissions,
    },
  };
}
