import { describe, expect, it } from 'vitest';
import { ADDRESS_LIMIT_FACTOR, LOGIN_WINDOW_MS, LoginThrottle } from '../../../../server/identity/login-throttle';

function advancingClock(start = Date.parse('2026-01-01T08:00:00Z')) {
  let now = start;
  return { now: () => new Date(now), advance: (ms: number) => (now += ms) };
}

describe('login throttle', () => {
  it('blocks an account after its failures, from every address, until its window ends', () => {
    const clock = advancingClock();
    const throttle = new LoginThrottle(3, clock);
    for (let i = 0; i < 3; i += 1) {
      expect(throttle.blockedUntil('ada@lab.test', `203.0.113.${i}`)).toBeUndefined();
      throttle.recordFailure('ada@lab.test', `203.0.113.${i}`);
    }
    const until = throttle.blockedUntil(' ADA@lab.test', '198.51.100.1');
    expect(until?.getTime()).toBe(clock.now().getTime() + LOGIN_WINDOW_MS);
    expect(throttle.blockedUntil('grace@lab.test', '198.51.100.1')).toBeUndefined();
    clock.advance(LOGIN_WINDOW_MS - 1);
    expect(throttle.blockedUntil('ada@lab.test', '198.51.100.1')).toBeDefined();
    clock.advance(1);
    expect(throttle.blockedUntil('ada@lab.test', '198.51.100.1')).toBeUndefined();
  });

  it('blocks an address that fails over many accounts, and a success clears only the account', () => {
    const throttle = new LoginThrottle(2, advancingClock());
    throttle.recordFailure('ada@lab.test', '203.0.113.7');
    throttle.recordSuccess('ada@lab.test');
    for (let i = 1; i < 2 * ADDRESS_LIMIT_FACTOR; i += 1) throttle.recordFailure(`user${i}@lab.test`, '203.0.113.7');
    expect(throttle.blockedUntil('grace@lab.test', '203.0.113.7')).toBeDefined();
    expect(throttle.blockedUntil('grace@lab.test', '203.0.113.8')).toBeUndefined();
  });
});
