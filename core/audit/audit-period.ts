/** A period of the trail as instants: from its start until (exclusive) the end of its last day, or just after its last instant. */
export interface PeriodBounds {
  from: Date;
  until: Date;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** How far `timeZone` is ahead of UTC at `instant`, in milliseconds. */
function zoneOffset(instant: number, timeZone: string): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' })
      .formatToParts(new Date(instant))
      .map((p) => [p.type, p.value]),
  );
  const wall = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  return wall - Math.floor(instant / 1000) * 1000;
}

/** Midnight starting `day` in `timeZone` (twice corrected, for a day on which the clocks change). */
function startOfDay(day: string, timeZone: string): number {
  const wall = Date.parse(`${day}T00:00:00Z`);
  const first = wall - zoneOffset(wall, timeZone);
  return wall - zoneOffset(first, timeZone);
}

/**
 * A period given as days (2026-11-01 to 2026-11-27: whole days in `timeZone`, as the reader means them)
 * or as instants with their offset.
 */
export function periodBounds(period: { from: string; to: string }, timeZone = 'UTC'): PeriodBounds {
  const from = DAY.test(period.from) ? startOfDay(period.from, timeZone) : Date.parse(period.from);
  const until = DAY.test(period.to) ? startOfDay(new Date(Date.parse(`${period.to}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10), timeZone) : Date.parse(period.to) + 1;
  return { from: new Date(from), until: new Date(until) };
}
