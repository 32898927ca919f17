import type { ValidationIssue } from '../core/errors.ts';
import { fieldType } from '../fields/registry.ts';
import type { StoredMediaReference } from '../fields/types/media-reference.ts';
import { checkFieldValue, copyOfDefault, isBlankValue } from '../fields/values.ts';
import type { FieldDefinition } from '../fields/definition.ts';

/**
 * An entry's field values against its collection's fields (each value's own check is its type's, in
 * src/fields/). Pure functions; whatever needs the database (reference targets exist, unique values)
 * is left to the caller.
 */

export interface ReferenceToCheck {
  field: string;
  collection: string;
  id: string;
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
    const raw = given ? data[field.slug] : copyOfDefault(field.defaultValue);
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

/** The reference values the caller must find in their target collections before saving. */
export function referencesToCheck(fields: FieldDefinition[], values: Record<string, unknown>): ReferenceToCheck[] {
  return fields.flatMap((field) => {
    const id = values[field.slug];
    const collection = field.options.collection;
    return fieldType(field.type).pointsAt === 'entry' && typeof id === 'string' && collection !== undefined ? [{ field: field.slug, collection, id }] : [];
  });
}

/** Fields whose values may name a media item (image and file). */
export function isMediaField(field: Pick<FieldDefinition, 'type'>): boolean {
  return fieldType(field.type).pointsAt === 'media';
}

/** The media ids among `values` that the caller must find in the media library before saving. */
export function mediaToCheck(fields: FieldDefinition[], values: Record<string, unknown>): { field: string; id: string }[] {
  return fields.flatMap((field) => {
    const id = isMediaField(field) ? (values[field.slug] as StoredMediaReference | null | undefined)?.id : undefined;
    return id === undefined ? [] : [{ field: field.slug, id }];
  });
}
