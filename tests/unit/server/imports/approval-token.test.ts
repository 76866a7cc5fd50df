import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { approvalTokens, APPROVAL_TTL_SECONDS, profilesDigest } from '../../../../server/imports/approval-token';

const ANN = '11111111-1111-4111-8111-111111111111';
const BOB = '22222222-2222-4222-8222-222222222222';
const D3 = '33333333-3333-4333-8333-333333333333';
const IMPORT = '44444444-4444-4444-8444-444444444444';
const CASE = '55555555-5555-4555-8555-555555555555';
const parsed = [{ profileId: 'ABCD1234NL#01', markerValues: [{ markerId: D3, alleles: ['15', '16'] }] }];
const subject = { importId: IMPORT, userId: ANN, caseId: CASE, digest: profilesDigest(parsed) };

function at(iso: string) {
  const clock = { current: new Date(iso), now: () => clock.current };
  return clock;
}

describe('approval tokens', () => {
  const secret = randomBytes(32);

  it('approve one import for the user and case it was read for, until they expire', () => {
    const clock = at('2026-11-22T10:00:00Z');
    const tokens = approvalTokens(secret, clock);
    const { token, expiresAt } = tokens.issue(subject);
    expect(expiresAt.toISOString()).toBe(new Date(Date.parse('2026-11-22T10:00:00Z') + APPROVAL_TTL_SECONDS * 1000).toISOString());
    expect(tokens.check(token, ANN)).toEqual({ refusal: null, subject });
    expect(tokens.check(token, BOB)).toEqual({ refusal: 'foreign' });
    clock.current = new Date(expiresAt.getTime());
    expect(tokens.check(token, ANN)).toEqual({ refusal: 'expired' });
  });

  it('issue the same token again from the stored expiry, and one without a case when the parse named none', () => {
    const tokens = approvalTokens(secret, at('2026-11-22T10:00:00Z'));
    const first = tokens.issue(subject);
    const again = approvalTokens(secret, at('2026-11-22T10:30:00Z')).issue(subject, first.expiresAt);
    expect(again.token).toBe(first.token);
    const open = tokens.issue({ ...subject, caseId: null });
    expect(tokens.check(open.token, ANN)).toMatchObject({ refusal: null, subject: { caseId: null } });
  });

  it('digest the sample names and alleles, so changed content is told apart', () => {
    expect(profilesDigest([{ ...parsed[0]!, markerValues: [{ markerId: D3, alleles: ['15', '17'] }] }])).not.toBe(subject.digest);
    expect(profilesDigest([{ ...parsed[0]!, profileId: 'ABCD1234NL#02' }])).not.toBe(subject.digest);
    expect(profilesDigest(structuredClone(parsed))).toBe(subject.digest);
  });

  it('refuse a token signed with another secret, edited, or not a token at all', () => {
    const clock = at('2026-11-22T10:00:00Z');
    const { token } = approvalTokens(randomBytes(32), clock).issue(subject);
    const tokens = approvalTokens(secret, clock);
    expect(tokens.check(token, ANN)).toEqual({ refusal: 'invalid' });
    const own = tokens.issue(subject).token;
    const [v, imp, , kase, exp, digest, sig] = own.split('.');
    // Claiming another user, another case or a later expiry breaks the signature.
    expect(tokens.check([v, imp, BOB, kase, exp, digest, sig].join('.'), BOB)).toEqual({ refusal: 'invalid' });
    expect(tokens.check([v, imp, ANN, '-', exp, digest, sig].join('.'), ANN)).toEqual({ refusal: 'invalid' });
    expect(tokens.check([v, imp, ANN, kase, String(Number(exp) + 3600), digest, sig].join('.'), ANN)).toEqual({ refusal: 'invalid' });
    expect(tokens.check('not-a-token', ANN)).toEqual({ refusal: 'invalid' });
  });
});
