import { describe, expect, it } from 'vitest';
import { periodBounds } from '../../../core/audit/audit-period';

describe('periodBounds', () => {
  it('takes days as whole days in the given time zone, the last day included', () => {
    expect(periodBounds({ from: '2026-11-01', to: '2026-11-27' })).toEqual({ from: new Date('2026-11-01T00:00:00Z'), until: new Date('2026-11-28T00:00:00Z') });
    expect(periodBounds({ from: '2026-11-01', to: '2026-11-27' }, 'Europe/Oslo')).toEqual({ from: new Date('2026-10-31T23:00:00Z'), until: new Date('2026-11-27T23:00:00Z') });
  });

  it('starts a day at its local midnight on the days the clocks change', () => {
    // Summer time ends in Oslo on 2026-10-25: the day before is still UTC+2, the day after UTC+1.
    expect(periodBounds({ from: '2026-10-25', to: '2026-10-25' }, 'Europe/Oslo')).toEqual({ from: new Date('2026-10-24T22:00:00Z'), until: new Date('2026-10-25T23:00:00Z') });
    expect(periodBounds({ from: '2026-03-01', to: '2026-03-01' }, 'America/New_York').from).toEqual(new Date('2026-03-01T05:00:00Z'));
  });

  it('takes instants as they are, the last one included', () => {
    expect(periodBounds({ from: '2026-11-01T08:00:00+01:00', to: '2026-11-01T09:00:00+01:00' }, 'Asia/Tokyo')).toEqual({
      from: new Date('2026-11-01T07:00:00Z'),
      until: new Date('2026-11-01T08:00:00.001Z'),
    });
  });
});
