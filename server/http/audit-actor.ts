import type { AuditActor } from '../audit/audit-trail';
import type { AuthenticatedUser } from '../identity/load-principal';

/** The signed-in user as the audit trail names them: full name, else e-mail. */
export function auditActor(user: AuthenticatedUser): AuditActor & { id: string } {
  return { id: user.id, name: `${user.firstName} ${user.lastName}`.trim() || user.email };
}
