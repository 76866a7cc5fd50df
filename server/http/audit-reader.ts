import type { AuditReader } from '../audit/audit-names';
import type { AuthenticatedUser } from '../identity/load-principal';

/** The signed-in user as a reader of the trail: the organizations whose records its rows may name to them. */
export function auditReader(user: AuthenticatedUser): AuditReader {
  return { organizationIds: user.scope === 'All' ? 'all' : user.organizations.map((o) => o.id) };
}
