import type { Principal } from '../../core/permissions';
import type { Me } from '../../core/schemas/me';

/** The permission rules of core/permissions.ts take a Principal; /api/me gives the same facts. */
export const principalOf = (me: Me): Principal => ({
  isAdmin: me.isAdmin,
  scope: me.scope,
  organizationIds: me.organizations.map((o) => o.id),
  permissions: me.permissions,
});

export const fullName = (me: Me): string => [me.firstName, me.lastName].filter(Boolean).join(' ') || me.email;
