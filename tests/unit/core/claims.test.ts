import { describe, expect, it } from 'vitest';
import { checkClaims, encodePermissionsClaim, NO_PERMISSIONS_MESSAGE, NO_SCOPE_MESSAGE } from '../../../core/claims';

describe('permissions claim', () => {
  it('round-trips a role through the nested JSON strings of spec 3', () => {
    const claim = encodePermissionsClaim('Reviewer', false, { Hits: ['Read', 'Publish'], Cases: ['Read'] });
    const outer = JSON.parse(claim) as { Name: string; IsAdmin: boolean; Permissions: string };
    expect(outer.Name).toBe('Reviewer');
    expect(typeof outer.Permissions).toBe('string');
    expect(JSON.parse(outer.Permissions)).toEqual({ Hits: { Read: true, Publish: true }, Cases: { Read: true } });
    const checked = checkClaims({ sub: 'u1', permissions: claim, ScopeLevel: 'Organization', organization: ['o1'] });
    expect(checked).toEqual({
      ok: true,
      user: {
        id: 'u1',
        roleName: 'Reviewer',
        isAdmin: false,
        scope: 'Organization',
        organizationIds: ['o1'],
        permissions: { Cases: ['Read'], Hits: ['Read', 'Publish'] },
      },
    });
  });
});

describe('sign-in checks (spec 5)', () => {
  it('refuses a non-administrator without permissions, verbatim', () => {
    const claim = encodePermissionsClaim('Empty', false, {});
    expect(checkClaims({ sub: 'u', permissions: claim, ScopeLevel: 'All' })).toEqual({ ok: false, error: NO_PERMISSIONS_MESSAGE });
    expect(checkClaims({ sub: 'u', ScopeLevel: 'All' })).toEqual({ ok: false, error: NO_PERMISSIONS_MESSAGE });
    expect(NO_PERMISSIONS_MESSAGE).toBe(
      'No permissions found. Contact your administrator and ask them to assign an access group to your account.',
    );
  });
  it('accepts an administrator without explicit permissions', () => {
    const claim = encodePermissionsClaim('Administrator', true, {});
    expect(checkClaims({ sub: 'u', permissions: claim, ScopeLevel: 'All' }).ok).toBe(true);
  });
  it('refuses a user without a scope level, verbatim', () => {
    const claim = encodePermissionsClaim('Administrator', true, {});
    expect(checkClaims({ sub: 'u', permissions: claim })).toEqual({ ok: false, error: NO_SCOPE_MESSAGE });
    expect(checkClaims({ sub: 'u', permissions: claim, ScopeLevel: 'Galaxy' })).toEqual({ ok: false, error: NO_SCOPE_MESSAGE });
    expect(NO_SCOPE_MESSAGE).toBe('No scope is set. Contact your administrator and ask them to assign scope to your account.');
  });
  it('treats a malformed permissions claim as no permissions', () => {
    expect(checkClaims({ sub: 'u', permissions: '{not json', ScopeLevel: 'All' })).toEqual({ ok: false, error: NO_PERMISSIONS_MESSAGE });
  });
});
