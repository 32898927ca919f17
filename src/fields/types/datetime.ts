import { fail, pass, type FieldTypeDefinition } from '../field-type.ts';
import { sortedText } from '../storage.ts';

const dateTimePattern = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?(Z|[+-]\d{2}:\d{2}))?$/i;
const earliestTime = Date.parse('0000-01-01T00:00:00.000Z');
const latestTime = Date.parse('9999-12-31T23:59:59.999Z');

/**
 * An ISO 8601 date-time with an offset (or a bare date, meaning midnight UTC) in the one form Folio
 * stores and returns, `YYYY-MM-DDTHH:mm:ss.sssZ`; undefined for anything else. A date-time without an
 * offset is refused rather than guessed at. Digits beyond milliseconds are dropped.
 */
export function normalizeDateTime(text: string): string | undefined {
  const match = dateTimePattern.exec(text);
  if (!match) return undefined;
  const [, year, month, day, hour = '00', minute = '00', second = '00', fraction = '', zone = 'Z'] = match;
  const parts = [Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second)] as const;
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, keeps years 0-99 as they are.
  date.setUTCFullYear(parts[0], parts[1], parts[2]);
  date.setUTCHours(parts[3], parts[4], parts[5], Number(fraction.slice(0, 3).padEnd(3, '0')));
  // Out-of-range parts roll over (February 30 becomes March 2); reading them back catches that.
  const fields = [date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate(), date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds()];
  if (fields.some((value, index) => value !== parts[index])) return undefined;
  const offset = zoneOffsetMinutes(zone);
  if (offset === undefined) return undefined;
  const time = date.getTime() - offset * 60_000;
  return time >= earliestTime && time <= latestTime ? new Date(time).toISOString() : undefined;
}

function zoneOffsetMinutes(zone: string): number | undefined {
  if (zone.toUpperCase() === 'Z') return 0;
  const hours = Number(zone.slice(1, 3));
  const minutes = Number(zone.slice(4, 6));
  if (hours > 23 || minutes > 59) return undefined;
  return (zone.startsWith('-') ? -1 : 1) * (hours * 60 + minutes);
}

/** Kept in one canonical UTC form, so that text order is time order. */
export const datetimeField: FieldTypeDefinition = {
  widget: 'datetime-picker',
  holds: 'ISO 8601 date-times',
  validation: [],
  options: [],
  unique: true,
  changesTo: ['string', 'text'],
  storage: sortedText,
  check(value) {
    const normalized = typeof value === 'string' ? normalizeDateTime(value) : undefined;
    return normalized === undefined ? fail('Must be an ISO 8601 date-time with a time zone (2026-01-31T09:30:00.000Z) or a date (2026-01-31)') : pass(normalized);
  },
  typeScript: () => 'string',
};
