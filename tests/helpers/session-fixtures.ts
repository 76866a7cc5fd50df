/** Example analyst the session tests sign in: claims as the provider issues them and /api/me's answer. */
import { encodePermissionsClaim, type LocusClaims } from '../../core/claims';
import type { Me } from '../../core/schemas/me';

export const ORG = '3f2504e0-4f89-41d3-9a0c-0305e82c3301';

export const analystClaims: LocusClaims = {
  sub: 'user-1',
  permissions: encodePermissionsClaim('Analyst', false, { Cases: ['Read'] }),
  ScopeLevel: 'Organization',
  organization: [ORG],
};

export const analystMe: Me = {
  id: '9b2f1c1e-8a43-4a59-9a49-6f3c1f0f5d11',
  email: 'ana@lab.example',
  firstName: 'Ana',
  lastName: 'Lyst',
  roleName: 'Analyst',
  isAdmin: false,
  scope: 'Organization',
  organizations: [{ id: ORG, name: 'North Lab' }],
  permissions: { Cases: ['Read'] },
  licensesAccepted: true,
};
