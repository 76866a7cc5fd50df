import { z } from 'zod';
import { SCOPES } from '../permissions';
import { Id } from './common';
import { OrganizationRef } from './me';
import { REQUIRED, requiredText } from './named-record';

/** Shortest password the embedded provider accepts (as LOCUS_ADMIN_PASSWORD in server/config.ts). */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_TOO_SHORT = `At least ${PASSWORD_MIN_LENGTH} characters`;

/** A new password: long rather than complex (NIST SP 800-63B 5.1.1), bounded so hashing stays cheap. */
export const NewPassword = z
  .string({ error: REQUIRED })
  .min(1, REQUIRED)
  .min(PASSWORD_MIN_LENGTH, PASSWORD_TOO_SHORT)
  .max(200, 'At most 200 characters');

const email = requiredText(320).pipe(z.email('Enter a valid e-mail address'));
const optionalName = z.string().trim().max(100, 'At most 100 characters');

/**
 * What the user form sends (spec 3 User). Role, lockout and notifications are changed by
 * administrators only, and organizations by users with Users Edit and scope All (spec 6): the
 * server refuses a different value from anyone else, so the form sends back what it loaded.
 */
export const UserInput = z.object({
  email,
  firstName: optionalName,
  lastName: optionalName,
  scope: z.enum(SCOPES, { error: REQUIRED }),
  organizationIds: z.array(Id),
  /** The role (access group); null = none yet (the user cannot sign in until one is given). */
  accessGroupId: Id.nullable(),
  lockedOut: z.boolean(),
  receiveNotifications: z.boolean(),
});
export type UserInput = z.infer<typeof UserInput>;

const RoleRef = z.object({ id: Id, name: z.string() });

/** What the Users table shows of a user (spec 2.7: Email, First Name, Last Name, Scope, Organizations, Role). */
const UserFields = z.object({
  id: Id,
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  scope: z.enum(SCOPES).nullable(),
  organizations: z.array(OrganizationRef),
  role: RoleRef.nullable(),
});

export const UserSummary = UserFields.meta({ id: 'UserSummary' });
export type UserSummary = z.infer<typeof UserSummary>;

/** One user as the edit form loads it. */
export const UserRecord = UserFields.extend({
  lockedOut: z.boolean(),
  receiveNotifications: z.boolean(),
  /** Whether the embedded provider holds a password for the user. */
  hasPassword: z.boolean(),
  version: z.number().int(),
  createdAt: z.iso.datetime(),
}).meta({ id: 'UserRecord' });
export type UserRecord = z.infer<typeof UserRecord>;

/** What the user form may offer the signed-in user: roles (administrators) and organizations. */
export const UserFormOptions = z
  .object({
    roles: z.array(z.object({ id: Id, name: z.string(), isAdmin: z.boolean() })),
    organizations: z.array(OrganizationRef),
    /** True under the embedded identity provider: administrators may set passwords and issue set-password links. */
    passwordsManagedHere: z.boolean(),
  })
  .meta({ id: 'UserFormOptions' });
export type UserFormOptions = z.infer<typeof UserFormOptions>;

/** POST /api/users/{id}/password: an administrator sets the user's password (embedded provider). */
export const SetPasswordInput = z.object({ password: NewPassword });
export type SetPasswordInput = z.infer<typeof SetPasswordInput>;

/** PUT /api/me/password: the signed-in user changes their own password. */
export const ChangePasswordInput = z.object({ currentPassword: z.string({ error: REQUIRED }).min(1, REQUIRED).max(200), newPassword: NewPassword });
export type ChangePasswordInput = z.infer<typeof ChangePasswordInput>;

/** A one-time set-password link, shown once to the administrator who asked for it. */
export const PasswordLink = z.object({ url: z.string(), expiresAt: z.iso.datetime() }).meta({ id: 'PasswordLink' });
export type PasswordLink = z.infer<typeof PasswordLink>;
