import type { FieldType } from './names.ts';
import type { FieldDefinition } from './definition.ts';
import type { ValueCheck } from './field-type.ts';
import { fieldType } from './registry.ts';

/** What a value check needs of a field. */
export type FieldRules = Pick<FieldDefinition, 'type' | 'validation'>;

/**
 * Checks one non-null value against its field and returns it normalized: date-times in canonical UTC,
 * Markdown converted to Portable Text, media strings as stored media references.
 */
export function checkFieldValue(field: FieldRules, value: unknown): ValueCheck {
  return fieldType(field.type).check(value, field.validation);
}

/** Whether a value counts as "no value" for `required`: null, absent, or what the type says is empty. */
export function isBlankValue(type: FieldType, value: unknown): boolean {
  if (value === null || value === undefined) return true;
  const { isBlank = isEmptyTextOrList } = fieldType(type);
  return isBlank(value);
}

function isEmptyTextOrList(value: unknown): boolean {
  return value === '' || (Array.isArray(value) && value.length === 0);
}

/** A field's default, normalized like an entry value; undefined when it has none (or it is invalid). */
export function defaultValueFor(field: Pick<FieldDefinition, 'type' | 'validation' | 'defaultValue'>): unknown {
  if (field.defaultValue === null || field.defaultValue === undefined) return undefined;
  const check = checkFieldValue(field, copyOfDefault(field.defaultValue));
  return check.ok ? check.value : undefined;
}

/** Defaults are copied so an entry's value never shares objects with the field definition. */
export function copyOfDefault(value: unknown): unknown {
  return typeof value === 'object' && value !== null ? structuredClone(value) : value;
}
