import type { ValidationIssue } from '../core/errors.ts';
import { RawJson } from '../core/raw-json.ts';
import type { ColumnKind, SortKind } from '../db/entry-tables.ts';
import { sortableFieldTypes, type FieldDefinition, type FieldType, type FieldValidation } from '../schema/types.ts';
import { compilePattern, patternValueMaxLength } from './patterns.ts';
import { normalizePortableText } from './portable-text.ts';

/**
 * Entry field values: checking them against their field's type and rules, and converting them to and
 * from the entry table's columns. Pure functions; whatever needs the database (reference targets exist,
 * unique values) is left to the caller.
 */

/** What a value check needs of a field. */
export type FieldRules = Pick<FieldDefinition, 'type' | 'validation'>;

export type ValueCheck = { ok: true; value: unknown } | { ok: false; message: string };

export interface ReferenceToCheck {
  field: string;
  collection: string;
  id: string;
}

/**
 * An image or file value as stored, the shape every input form is normalized to. At least one of `id`
 * and `url` is present; reads fill in the rest from the media item (media-values.ts, decisions/0014).
 */
export interface StoredMediaReference {
  id?: string;
  url?: string;
  alt?: string;
}

const ulidPattern = /^[0-9A-HJKMNP-TV-Z]{26}$/;
const slugValuePattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const slugValueMaxLength = 200;
const mediaUrlMaxLength = 2048;
const jsonMaxDepth = 100;

/** How a type's values sit in their column: the storage engine never shows through on the wire. */
const encodings: Record<FieldType, 'string' | 'number' | 'boolean' | 'json'> = {
  string: 'string',
  text: 'string',
  slug: 'string',
  datetime: 'string',
  select: 'string',
  reference: 'string',
  number: 'number',
  integer: 'number',
  boolean: 'boolean',
  multiSelect: 'json',
  portableText: 'json',
  image: 'json',
  file: 'json',
  json: 'json',
};

export function columnKind(type: FieldType): ColumnKind {
  if (type === 'number') return 'real';
  if (type === 'integer' || type === 'boolean') return 'integer';
  return 'text';
}

/** How a field's values compare in a sorted list; undefined for types lists cannot be sorted by. */
export function sortKind(type: FieldType): SortKind | undefined {
  if (!sortableFieldTypes.includes(type)) return undefined;
  return type === 'boolean' ? 'boolean' : columnKind(type);
}

/**
 * `string` is the short, sortable text type: its values are indexed, and PostgreSQL refuses an index
 * entry past about 2,700 bytes. 500 characters (at most 2,000 bytes of UTF-8) keeps every value
 * indexable; `text` has no such limit.
 */
export const stringValueMaxLength = 500;

/**
 * Checks one non-null value against its field and returns it normalized: date-times in canonical UTC,
 * Markdown converted to Portable Text, media strings as {@link StoredMediaReference}.
 */
export function checkFieldValue(field: FieldRules, value: unknown): ValueCheck {
  const { validation } = field;
  switch (field.type) {
    case 'string':
      if (typeof value !== 'string') return fail('Must be a string');
      if (value.length > stringValueMaxLength) return fail(`Must be at most ${stringValueMaxLength} characters (use a text field for longer text)`);
      return checkLength(value, validation);
    case 'text':
      return typeof value === 'string' ? checkLength(value, validation) : fail('Must be a string');
    case 'slug':
      if (typeof value !== 'string') return fail('Must be a string');
      if (!slugValuePattern.test(value)) return fail('Must be lower-case letters and digits joined by single hyphens, e.g. my-page-2');
      if (value.length > slugValueMaxLength) return fail(`Must be at most ${slugValueMaxLength} characters`);
      return checkLength(value, validation);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? checkRange(value, validation) : fail('Must be a finite number');
    case 'integer':
      return typeof value === 'number' && Number.isSafeInteger(value) ? checkRange(value, validation) : fail('Must be a whole number within ±9007199254740991');
    case 'boolean':
      return typeof value === 'boolean' ? pass(value) : fail('Must be true or false');
    case 'datetime': {
      const normalized = typeof value === 'string' ? normalizeDateTime(value) : undefined;
      return normalized === undefined ? fail('Must be an ISO 8601 date-time with a time zone (2026-01-31T09:30:00.000Z) or a date (2026-01-31)') : pass(normalized);
    }
    case 'select':
      return typeof value === 'string' && (validation.options ?? []).includes(value) ? pass(value) : fail(`Must be one of: ${listOptions(validation)}`);
    case 'multiSelect':
      return checkMultiSelect(value, validation);
    case 'portableText':
      return checkPortableText(value);
    case 'image':
    case 'file':
      return checkMediaReference(value);
    case 'reference':
      return typeof value === 'string' && ulidPattern.test(value) ? pass(value) : fail('Must be an entry id (a 26-character ULID)');
    case 'json': {
      const problem = jsonProblem(value, 0);
      return problem === undefined ? pass(value) : fail(problem);
    }
  }
}

/**
 * Checks entry data against a collection's fields: every problem in one list, at most one issue per
 * field, at `data.<slug>`. On create, absent fields take their default and `values` holds every field
 * (null when it has no value); on update only the given keys are checked and returned. `null` clears an
 * optional field; a required one may not be null, absent, empty text or an empty list.
 */
export function validateEntryData(
  fields: FieldDefinition[],
  data: Record<string, unknown>,
  mode: 'create' | 'update',
): { values: Record<string, unknown>; issues: ValidationIssue[] } {
  const values: Record<string, unknown> = {};
  const issues: ValidationIssue[] = [];
  const known = new Set(fields.map((field) => field.slug));
  for (const field of fields) {
    const given = Object.hasOwn(data, field.slug) && data[field.slug] !== undefined;
    if (mode === 'update' && !given) continue;
    const path = `data.${field.slug}`;
    const raw = given ? data[field.slug] : cloneDefault(field.defaultValue);
    if (raw === null || raw === undefined) {
      if (field.required) issues.push({ path, message: 'Required' });
      else values[field.slug] = null;
      continue;
    }
    if (field.required && isBlankValue(field.type, raw)) {
      issues.push({ path, message: 'Required' });
      continue;
    }
    const check = checkFieldValue(field, raw);
    if (!check.ok) issues.push({ path, message: check.message });
    else if (field.required && isBlankValue(field.type, check.value)) issues.push({ path, message: 'Required' });
    else values[field.slug] = check.value;
  }
  for (const key of Object.keys(data)) {
    if (!known.has(key)) issues.push({ path: `data.${key}`, message: 'Unknown field' });
  }
  return { values, issues };
}

/**
 * Whether a value counts as "no value" for `required`: null, absent, empty text, or an empty list (of
 * options or blocks). A `json` field's `""`, `[]` and `{}` are values like any other.
 */
export function isBlankValue(type: FieldType, value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (type === 'json') return false;
  return value === '' || (Array.isArray(value) && value.length === 0);
}

/** A field's default, normalized like an entry value; undefined when it has none (or it is invalid). */
export function defaultValueFor(field: Pick<FieldDefinition, 'type' | 'validation' | 'defaultValue'>): unknown {
  if (field.defaultValue === null || field.defaultValue === undefined) return undefined;
  const check = checkFieldValue(field, cloneDefault(field.defaultValue));
  return check.ok ? check.value : undefined;
}

/** The reference values the caller must find in their target collections before saving. */
export function referencesToCheck(fields: FieldDefinition[], values: Record<string, unknown>): ReferenceToCheck[] {
  return fields.flatMap((field) => {
    const id = values[field.slug];
    const collection = field.options.collection;
    return field.type === 'reference' && typeof id === 'string' && collection !== undefined ? [{ field: field.slug, collection, id }] : [];
  });
}

/** Image and file fields: their values may name a media item. */
export function isMediaField(field: Pick<FieldDefinition, 'type'>): boolean {
  return field.type === 'image' || field.type === 'file';
}

/** The media ids among `values` that the caller must find in the media library before saving. */
export function mediaToCheck(fields: FieldDefinition[], values: Record<string, unknown>): { field: string; id: string }[] {
  return fields.flatMap((field) => {
    const id = isMediaField(field) ? (values[field.slug] as StoredMediaReference | null | undefined)?.id : undefined;
    return id === undefined ? [] : [{ field: field.slug, id }];
  });
}

/** A checked value as its column holds it. */
export function toColumnValue(field: Pick<FieldDefinition, 'type'>, value: unknown): string | number | null {
  if (value === null || value === undefined) return null;
  const encoding = encodings[field.type];
  if (encoding === 'json') return JSON.stringify(value);
  if (encoding === 'boolean') return value === true ? 1 : 0;
  if (typeof value === encoding) return value as string | number;
  // Values reach here only through checkFieldValue, so this is a caller's bug, not bad input.
  throw new TypeError(`A ${field.type} value must be a ${encoding}, got ${typeof value}`);
}

/** A column's content for a response only: JSON text goes out as stored, without a parse (core/raw-json.ts). */
export function responseColumnValue(field: Pick<FieldDefinition, 'type'>, stored: unknown): unknown {
  if (stored !== null && stored !== undefined && encodings[field.type] === 'json') return new RawJson(String(stored));
  return fromColumnValue(field, stored);
}

/** A column's content as the API shows it. */
export function fromColumnValue(field: Pick<FieldDefinition, 'type'>, stored: unknown): unknown {
  if (stored === null || stored === undefined) return null;
  switch (encodings[field.type]) {
    case 'json':
      return JSON.parse(String(stored));
    case 'boolean':
      return Number(stored) !== 0;
    case 'number':
      // A driver may hand back a bigint or a numeric string; the wire always gets a number.
      return Number(stored);
    case 'string':
      return String(stored);
  }
}

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

function pass(value: unknown): ValueCheck {
  return { ok: true, value };
}

function fail(message: string): ValueCheck {
  return { ok: false, message };
}

/** Lengths count characters (code points), so an emoji is one, as an author would count it. */
function characterCount(text: string): number {
  let count = 0;
  for (const _character of text) count++;
  return count;
}

function checkLength(text: string, validation: FieldValidation): ValueCheck {
  const { minLength, maxLength, pattern } = validation;
  if (minLength !== undefined || maxLength !== undefined) {
    const length = characterCount(text);
    if (minLength !== undefined && length < minLength) return fail(`Must be at least ${minLength} characters`);
    if (maxLength !== undefined && length > maxLength) return fail(`Must be at most ${maxLength} characters`);
  }
  if (pattern !== undefined) {
    if (text.length > patternValueMaxLength) return fail(`Must be at most ${patternValueMaxLength} characters to be checked against the pattern`);
    const compiled = compilePattern(pattern);
    // Only a pattern stored before the engine changed can fail here: definitions are checked with the same compiler.
    if (!compiled.ok) return fail(`Cannot be checked: the field's pattern is not supported any more, so an administrator must change validation.pattern (${compiled.problem})`);
    if (!compiled.test(text)) return fail(`Must match the pattern ${pattern}`);
  }
  return pass(text);
}

function checkRange(value: number, validation: FieldValidation): ValueCheck {
  if (validation.min !== undefined && value < validation.min) return fail(`Must be at least ${validation.min}`);
  if (validation.max !== undefined && value > validation.max) return fail(`Must be at most ${validation.max}`);
  return pass(value);
}

function listOptions(validation: FieldValidation): string {
  return (validation.options ?? []).map((option) => JSON.stringify(option)).join(', ');
}

/** `validation.min`/`max` of a multiSelect count the chosen options. */
function checkMultiSelect(value: unknown, validation: FieldValidation): ValueCheck {
  if (!Array.isArray(value)) return fail(`Must be a list of options from: ${listOptions(validation)}`);
  const allowed = validation.options ?? [];
  const wrong = value.find((item) => typeof item !== 'string' || !allowed.includes(item));
  if (wrong !== undefined) return fail(`${JSON.stringify(wrong)} is not an option; options: ${listOptions(validation)}`);
  if (new Set(value).size !== value.length) return fail('Must not repeat an option');
  if (validation.min !== undefined && value.length < validation.min) return fail(`Must have at least ${validation.min} options chosen`);
  if (validation.max !== undefined && value.length > validation.max) return fail(`Must have at most ${validation.max} options chosen`);
  return pass(value);
}

/** Markdown is converted (DECISIONS §3: models write Markdown far more reliably than block JSON). */
function checkPortableText(value: unknown): ValueCheck {
  const normalized = normalizePortableText(value);
  if (normalized.ok) return pass(normalized.blocks);
  return fail(normalized.issues.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message)).join('; '));
}

const mediaShape = 'Must be a media id, an http(s) URL or /path, or {id, url, alt} with an id or a url';

function checkMediaReference(value: unknown): ValueCheck {
  if (typeof value === 'string') {
    if (ulidPattern.test(value)) return pass({ id: value });
    return isMediaUrl(value) ? pass({ url: value }) : fail(mediaShape);
  }
  if (!isPlainObject(value)) return fail(mediaShape);
  const unknownKey = Object.keys(value).find((key) => key !== 'id' && key !== 'url' && key !== 'alt');
  if (unknownKey !== undefined) return fail(`Unknown key ${JSON.stringify(unknownKey)}: ${mediaShape}`);
  const reference: StoredMediaReference = {};
  const { id, url, alt } = value;
  if (id !== undefined && id !== null) {
    if (typeof id !== 'string' || !ulidPattern.test(id)) return fail('id must be a media id (a 26-character ULID)');
    reference.id = id;
  }
  if (url !== undefined && url !== null) {
    if (typeof url !== 'string' || !isMediaUrl(url)) return fail(`url must be an http(s) URL or a path starting with / (at most ${mediaUrlMaxLength} characters)`);
    reference.url = url;
  }
  if (alt !== undefined && alt !== null) {
    if (typeof alt !== 'string') return fail('alt must be a string');
    reference.alt = alt;
  }
  return reference.id === undefined && reference.url === undefined ? fail(mediaShape) : pass(reference);
}

/** Only web URLs and site paths: a `javascript:` or `data:` URL would end up in someone's `<img src>`. */
function isMediaUrl(text: string): boolean {
  if (text.length > mediaUrlMaxLength || /\s/.test(text)) return false;
  if (text.startsWith('/')) return !text.startsWith('//');
  if (!URL.canParse(text)) return false;
  const { protocol } = new URL(text);
  return protocol === 'https:' || protocol === 'http:';
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** Why a value is not plain JSON (parsed bodies always are; defaults set in code might not be). */
function jsonProblem(value: unknown, depth: number): string | undefined {
  if (depth > jsonMaxDepth) return `Must not nest deeper than ${jsonMaxDepth} levels`;
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : 'Numbers must be finite';
  const items = Array.isArray(value) ? value : isPlainObject(value) ? Object.values(value) : undefined;
  if (items === undefined) return 'Must be a JSON value';
  for (const item of items) {
    const problem = jsonProblem(item, depth + 1);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/** Defaults are copied so an entry's value never shares objects with the field definition. */
function cloneDefault(value: unknown): unknown {
  return typeof value === 'object' && value !== null ? structuredClone(value) : value;
}
