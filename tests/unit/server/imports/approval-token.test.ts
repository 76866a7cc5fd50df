import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { approvalTokens, APPROVAL_TTL_SECONDS } from '../../../../server/imports/approval-token';

const ANN = '11111111-1111-4111-8111-111111111111';
const BOB = '22222222-2222-4222-8222-222222222222';
const D3 = '33333333-3333-4333-8333-333333333333';
const parsed = [{ profileId: 'ABCD1234NL#01', markerValues: [{ markerId: D3, alleles: ['15', '16'] }] }];

function at(iso: string) {
  const clock = { current: new Date(iso), now: () => clock.current };
  return clock;
}

describe('approval tokens', () => {
  const secret = randomBytes(32);

  it('approve exactly the parsed profiles, for the user they were parsed for, until they expire', () => {
    const clock = at('2026-11-22T10:00:00Z');
    const tokens = approvalTokens(secret, clock);
    const { token, expiresAt } = tokens.issue(ANN, parsed);
    expect(expiresAt.toISOString()).toBe(new Date(Date.parse('2026-11-22T10:00:00Z') + APPROVAL_TTL_SECONDS * 1000).toISOString());
    expect(tokens.refusal(token, ANN, parsed)).toBeNull();
    expect(tokens.refusal(token, BOB, parsed)).toBe('foreign');
    expect(tokens.refusal(token, ANN, [{ ...parsed[0]!, markerValues: [{ markerId: D3, alleles: ['15', '17'] }] }])).toBe('mismatch');
    expect(tokens.refusal(token, ANN, [{ ...parsed[0]!, profileId: 'ABCD1234NL#02' }])).toBe('mismatch');
    clock.current = new Date(expiresAt.getTime());
    expect(tokens.refusal(token, ANN, parsed)).toBe('expired');
  });

  it('refuse a token signed with another secret, edited, or not a token at all', () => {
    const clock = at('2026-11-22T10:00:00Z');
    const { token } = approvalTokens(randomBytes(32), clock).issue(ANN, parsed);
    const tokens = approvalTokens(secret, clock);
    expect(tokens.refusal(token, ANN, parsed)).toBe('invalid');
    const own = tokens.issue(ANN, parsed).token;
    const [v, , exp, digest, sig] = own.split('.');
    // Claiming another user or a later expiry breaks the signature.
    expect(tokens.refusal([v, BOB, exp, digest, sig].join('.'), BOB, parsed)).toBe('invalid');
    expect(tokens.refusal([v, ANN, String(Number(exp) + 3600), digest, sig].join('.'), ANN, parsed)).toBe('invalid');
    expect(tokens.refusal('not-a-token', ANN, parsed)).toBe('invalid');
  });
});
