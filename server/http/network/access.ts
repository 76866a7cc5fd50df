import { canAdministerNetwork } from '../../../core/permissions';
import type { Access } from '../access';

/** Service clients, this instance's settings and the registry of lower instances: an administrator with scope All. */
export const NETWORK_ADMINISTRATION: Access = { rule: 'administrator with scope All (network administration)', allows: (user) => canAdministerNetwork(user) };

/** What one instance asks another (its name and level): a service client, or an administrator with scope All. */
export const NETWORK_PEER: Access = {
  rule: 'service client, or administrator with scope All (network calls)',
  allows: (user) => user.service !== undefined || canAdministerNetwork(user),
  services: true,
};

/** A foreign instance sending a query and polling its answer (Prüm II): a service client only, no person. */
export const FOREIGN_SENDER: Access = { rule: 'service client (a foreign instance)', allows: (user) => user.service !== undefined, services: true };
/** What only another instance sends (its batches): a service client registered as a lower instance, never a person. */
export const NETWORK_SERVICE: Access = { rule: 'service client of a lower instance (network delivery)', allows: (user) => user.service !== undefined, services: true };
