import { formatDate, formatDateTime } from './format';

// An item's collection is one instant (physical_items.collected_at). The form takes a local date and,
// when known, a local time; a collection entered without a time is local midnight and reads as a date.

const pad = (n: number) => String(n).padStart(2, '0');
const isMidnight = (d: Date) => d.getHours() === 0 && d.getMinutes() === 0 && d.getSeconds() === 0;

/** The instant the form's local date and optional time name, or null when no date is given. */
export function collectionInstant(date: string, time: string): string | null {
  return date ? new Date(`${date}T${time || '00:00'}`).toISOString() : null;
}

/** The form's local date and time of a stored instant (time '' at local midnight). */
export function collectionFields(instant: string | null): { collectedDate: string; collectedTime: string } {
  if (!instant) return { collectedDate: '', collectedTime: '' };
  const d = new Date(instant);
  return {
    collectedDate: `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`,
    collectedTime: isMidnight(d) ? '' : `${pad(d.getHours())}:${pad(d.getMinutes())}`,
  };
}

/** A collection in local time, as a date alone when it was entered without a time; '' when not known. */
export function formatCollectedAt(instant: string | null): string {
  if (!instant) return '';
  return isMidnight(new Date(instant)) ? formatDate(instant) : formatDateTime(instant);
}
