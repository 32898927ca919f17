import { isSerialized, unserialize } from 'php-serialize';
import type { MetaFieldShape } from '../sources/types.ts';

/**
 * WordPress's ways of writing values, made plain: its dates (and RSS's), its percent-encoded slugs,
 * its repeatable meta keys and its PHP-serialized meta values.
 */

const zeroDate = /^0000-00-00/;

/** `2013-04-09 13:37:45` (GMT) as ISO 8601; undefined for WordPress's "no date" and anything unreadable. */
export function gmtDate(text: string): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})/.exec(text.trim());
  if (!match || zeroDate.test(text)) return undefined;
  const date = new Date(`${match[1]}-${match[2]}-${match[3]}T${match[4]}:${match[5]}:${match[6]}.000Z`);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

const months = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** RFC 822's named zones, in hours from GMT (its one-letter military zones are left out: their signs were long read both ways). */
const zoneHours: Record<string, number> = { UT: 0, GMT: 0, Z: 0, EST: -5, EDT: -4, CST: -6, CDT: -5, MST: -7, MDT: -6, PST: -8, PDT: -7 };

const rfc822 = /^(?:[A-Za-z]{3},\s*)?(\d{1,2})\s+([A-Za-z]{3})\s+(\d{4}|\d{2})\s+(\d{2}):(\d{2})(?::(\d{2}))?\s+([+-]\d{4}|[A-Za-z]{1,3})$/;

/**
 * WordPress's zero date as older PHP wrote it in `pubDate` (`Tue, 30 Nov 1999 00:00:00 +0000`, day 0 of
 * month 0 of year 0): a date WordPress, first released in 2003, cannot have given a post.
 */
const zeroPubDate = Date.UTC(1999, 10, 30);

/**
 * RSS's `pubDate` (RFC 822: `Fri, 01 Mar 2024 10:00:00 +0000`) as ISO 8601; undefined for anything
 * else, and for what WordPress writes for a post with no date (`Wed, 30 Nov -0001 00:00:00 +0000`,
 * or its older zero date).
 */
export function rssDate(text: string): string | undefined {
  const match = rfc822.exec(text.trim());
  if (!match) return undefined;
  const [, day = '', monthName = '', yearText = '', hour = '', minute = '', second = '0', zone = ''] = match;
  const month = months.indexOf(monthName.toLowerCase());
  // RFC 2822's reading of the two-digit years of RFC 822.
  const year = yearText.length === 2 ? Number(yearText) + (Number(yearText) < 50 ? 2000 : 1900) : Number(yearText);
  const offset = zoneMinutes(zone);
  if (month < 0 || Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59 || offset === undefined) return undefined;
  const local = new Date(Date.UTC(year, month, Number(day), Number(hour), Number(minute), Number(second)));
  // Date.UTC rolls 31 February over into March and reads years 0-99 as 1900-1999: such a date is no date.
  if (local.getUTCFullYear() !== year || local.getUTCMonth() !== month || local.getUTCDate() !== Number(day)) return undefined;
  const time = local.getTime() - offset * 60_000;
  return time === zeroPubDate ? undefined : new Date(time).toISOString();
}

/** An RFC 822 zone (`+0100`, `GMT`, `EST`) in minutes east of GMT. */
function zoneMinutes(zone: string): number | undefined {
  if (/^[+-]\d{4}$/.test(zone)) return (zone.startsWith('-') ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(3)));
  const hours = zoneHours[zone.toUpperCase()];
  return hours === undefined ? undefined : hours * 60;
}

/** WordPress keeps non-Latin slugs percent-encoded (`%e6%97%a5`); Folio keeps them as letters. */
export function decodeSlug(slug: string): string {
  try {
    return decodeURIComponent(slug).toLowerCase();
  } catch {
    return slug.toLowerCase();
  }
}

/**
 * A meta value as a value: PHP-serialized arrays and objects decoded (objects of unknown classes
 * become plain objects), numbers-as-text left as text (the field type decides later).
 */
export function metaValue(raw: string): unknown {
  const text = raw.trim();
  if (!isSerialized(text)) return raw;
  try {
    return plain(unserialize(text, {}, { strict: false }));
  } catch {
    return raw;
  }
}

/** A decoded PHP value as JSON can hold it: PHP arrays with keys 0..n-1 become arrays. */
function plain(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(plain);
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.every(([key], index) => key === String(index))) return entries.map(([, item]) => plain(item));
  return Object.fromEntries(entries.map(([key, item]) => [key, plain(item)]));
}

/**
 * An item's meta values by key, in the source's order: WordPress lets a key repeat on one post (an
 * `enclosure` per linked media file, an `_wp_old_slug` per slug it had), and every value counts.
 */
export function metaByKey<V>(pairs: Iterable<{ key: string; value: V }>): Map<string, V[]> {
  const byKey = new Map<string, V[]>();
  for (const { key, value } of pairs) {
    const values = byKey.get(key);
    if (values) values.push(value);
    else byKey.set(key, [value]);
  }
  return byKey;
}

/** Each key's value as WordPress reads one (`get_post_meta` with `$single`): its first. */
export function firstMetaValues<V>(byKey: ReadonlyMap<string, readonly V[]>): Map<string, V> {
  return new Map([...byKey].map(([key, values]) => [key, values[0]!]));
}

/** The meta as an entry keeps it: a key seen once holds its decoded value, a repeated key the array of its decoded values in order. */
export function metaRecord<V>(byKey: ReadonlyMap<string, readonly V[]>, decode: (value: V) => unknown): Record<string, unknown> {
  return Object.fromEntries([...byKey].map(([key, values]) => [key, values.length === 1 ? decode(values[0]!) : values.map(decode)]));
}

/** Meta keys that become fields must be field slugs; others go into the `meta` JSON field. */
export function metaFieldSlug(key: string): string | undefined {
  const slug = key.toLowerCase();
  if (!/^[a-z][a-z0-9_]{0,62}$/.test(slug) || reservedSlugs.has(slug) || slug !== key) return undefined;
  return slug;
}

/** The import's own fields and the slugs the schema reserves (schema/operations.ts). */
const reservedSlugs = new Set([
  'title', 'content', 'excerpt', 'featured_image', 'parent', 'menu_order', 'sticky', 'meta',
  'id', 'type', 'slug', 'status', 'data', 'locale', 'version', 'rev', 'created_at', 'updated_at', 'published_at', 'scheduled_at', 'deleted_at',
  'oid', 'rowid', 'xmin', 'xmax', 'cmin', 'cmax', 'ctid', 'tableoid',
]);

type MetaType = MetaFieldShape['type'];

/** The narrowest type one value fits. */
function typeOf(value: unknown): MetaType {
  if (typeof value !== 'string') return 'json';
  if (/^-?\d{1,15}$/.test(value)) return 'integer';
  if (/^-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?$/.test(value) && Number.isFinite(Number(value))) return 'number';
  return value.length <= 200 && !/[\r\n]/.test(value) ? 'string' : 'text';
}

const widening: Record<MetaType, MetaType[]> = {
  integer: ['integer', 'number', 'string', 'text'],
  number: ['number', 'string', 'text'],
  string: ['string', 'text'],
  text: ['text'],
  boolean: ['boolean'],
  json: ['json'],
};

/** The type both values fit: the wider of two on one ladder, else `json`. */
export function agreeingType(current: MetaType | undefined, value: unknown): MetaType {
  const next = typeOf(value);
  if (current === undefined) return next;
  if (widening[current].includes(next)) return next;
  if (widening[next].includes(current)) return current;
  return 'json';
}

/** A text meta value as its field's type stores it. */
export function typedMetaValue(type: string, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  if (type === 'integer' || type === 'number') return Number(value);
  return value;
}
