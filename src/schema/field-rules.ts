import type { ValidationIssue } from '../core/errors.ts';
import { checkFieldValue, columnKind, isBlankValue } from '../content/field-values.ts';
import { compilePattern } from '../content/patterns.ts';
import type { FieldOptions, FieldType, FieldValidation } from './types.ts';

/** The parts of a field definition whose consistency these rules check (DECISIONS §4). */
export interface FieldDefinitionInput {
  type: FieldType;
  validation?: FieldValidation;
  options?: FieldOptions;
  defaultValue?: unknown;
  required?: boolean;
  unique?: boolean;
}

const textRules = ['minLength', 'maxLength', 'pattern'] as const;
const rangeRules = ['min', 'max'] as const;

/** Which `validation` keys mean something for each type; any other is refused so a typo surfaces. */
const validationKeysByType: Record<FieldType, readonly (keyof FieldValidation)[]> = {
  string: textRules,
  text: textRules,
  slug: textRules,
  number: rangeRules,
  integer: rangeRules,
  select: ['options'],
  multiSelect: ['options', ...rangeRules],
  boolean: [],
  datetime: [],
  portableText: [],
  image: [],
  file: [],
  reference: [],
  json: [],
};

const optionKeysByType: Record<FieldType, readonly (keyof FieldOptions)[]> = {
  string: [],
  text: ['rows'],
  slug: [],
  number: [],
  integer: [],
  select: [],
  multiSelect: [],
  boolean: [],
  datetime: [],
  portableText: [],
  image: [],
  file: [],
  reference: ['collection'],
  json: [],
};

/** Types a unique index makes sense for: short scalar values compared whole. */
export const uniqueFieldTypes: readonly FieldType[] = ['string', 'slug', 'number', 'integer', 'datetime', 'select', 'reference'];

/** Every inconsistency in a field definition, at paths like `validation.min`. */
export function fieldDefinitionIssues(definition: FieldDefinitionInput): ValidationIssue[] {
  const { type } = definition;
  const validation = definition.validation ?? {};
  const options = definition.options ?? {};
  const issues: ValidationIssue[] = [];
  const add = (path: string, message: string) => issues.push({ path, message });

  for (const key of definedKeys(validation)) {
    if (!validationKeysByType[type].includes(key)) add(`validation.${key}`, `Does not apply to ${type} fields`);
  }
  for (const key of definedKeys(options)) {
    if (!optionKeysByType[type].includes(key)) add(`options.${key}`, `Does not apply to ${type} fields`);
  }
  const counts = type === 'multiSelect';
  checkBounds(validation.min, validation.max, 'min', 'max', counts, add);
  checkBounds(validation.minLength, validation.maxLength, 'minLength', 'maxLength', true, add);
  if (validation.pattern !== undefined) {
    const problem = patternProblem(validation.pattern);
    if (problem !== undefined) add('validation.pattern', problem);
  }
  if (type === 'select' || type === 'multiSelect') {
    const choices = validation.options;
    if (choices === undefined || choices.length === 0) add('validation.options', `A ${type} field needs a non-empty list of options`);
    else if (choices.some((choice) => typeof choice !== 'string' || choice === '')) add('validation.options', 'Options must be non-empty strings');
    else if (new Set(choices).size !== choices.length) add('validation.options', 'Options must be distinct');
  }
  if (type === 'reference' && !options.collection) add('options.collection', 'A reference field needs the slug of its target collection');
  if (definition.unique && !uniqueFieldTypes.includes(type)) add('unique', `A ${type} field cannot be unique (only ${uniqueFieldTypes.join(', ')})`);

  // The default is checked with the rules above, so only when they hold (a broken pattern cannot run).
  const { defaultValue } = definition;
  if (issues.length === 0 && defaultValue !== undefined && defaultValue !== null) {
    const check = checkFieldValue({ type, validation }, defaultValue);
    if (!check.ok) add('defaultValue', check.message);
    else if (definition.required && isBlankValue(type, check.value)) add('defaultValue', 'Must not be empty on a required field');
  }
  return issues;
}

/** Longest accepted `validation.pattern`; real field patterns are a few dozen characters. */
export const patternMaxLength = 500;

/** Why a pattern is refused: too long, or the engine cannot run it (content/patterns.ts). */
function patternProblem(pattern: string): string | undefined {
  if (pattern.length > patternMaxLength) return `Must be at most ${patternMaxLength} characters`;
  const compiled = compilePattern(pattern);
  return compiled.ok ? undefined : compiled.problem;
}

function definedKeys<T extends object>(record: T): (keyof T)[] {
  return (Object.keys(record) as (keyof T)[]).filter((key) => record[key] !== undefined);
}

/** Lower and upper bounds: finite, ordered, and whole non-negative numbers when they count things. */
function checkBounds(
  lower: number | undefined,
  upper: number | undefined,
  lowerName: string,
  upperName: string,
  counts: boolean,
  add: (path: string, message: string) => void,
): void {
  for (const [name, bound] of [[lowerName, lower], [upperName, upper]] as const) {
    if (bound === undefined) continue;
    if (!Number.isFinite(bound)) add(`validation.${name}`, 'Must be a finite number');
    else if (counts && !(Number.isInteger(bound) && bound >= 0)) add(`validation.${name}`, 'Must be a whole number, 0 or more');
  }
  if (lower !== undefined && upper !== undefined && lower > upper) add(`validation.${lowerName}`, `Must not be greater than validation.${upperName} (${upper})`);
}

/**
 * Type changes under which every stored value stays valid as it is: text-like values read as text,
 * integers are numbers, image and file share one shape, and values stored as JSON are JSON.
 * Only integer → number moves to another column kind (integer → real).
 */
const safeTypeChanges: Partial<Record<FieldType, readonly FieldType[]>> = {
  string: ['text'],
  text: ['string'],
  slug: ['string', 'text'],
  select: ['string', 'text'],
  datetime: ['string', 'text'],
  reference: ['string', 'text'],
  integer: ['number'],
  image: ['file', 'json'],
  file: ['image', 'json'],
  multiSelect: ['json'],
  portableText: ['json'],
};

/** What a field of each type may hold, to say why a change is refused. */
const typeHolds: Record<FieldType, string> = {
  string: 'text',
  text: 'text',
  slug: 'lower-case URL slugs',
  number: 'numbers',
  integer: 'whole numbers',
  boolean: 'true or false',
  datetime: 'ISO 8601 date-times',
  select: 'one of its options',
  multiSelect: 'lists of its options',
  portableText: 'Portable Text blocks',
  image: 'media references',
  file: 'media references',
  reference: 'entry ids',
  json: 'JSON values',
};

/** Why a field cannot change from one type to another, or undefined when it can. */
export function typeChangeProblem(from: FieldType, to: FieldType): string | undefined {
  if (from === to || safeTypeChanges[from]?.includes(to)) return undefined;
  const storage = columnKind(from) === columnKind(to) ? '' : `, and the column would change from ${columnKind(from)} to ${columnKind(to)}`;
  const allowed = safeTypeChanges[from]?.join(', ') ?? 'none';
  return `Cannot change a field from ${from} to ${to}: ${to} fields hold ${typeHolds[to]}, which stored ${from} values are not guaranteed to be${storage}. Allowed changes from ${from}: ${allowed}`;
}

/**
 * The rules of a definition that still mean something after a type change; a PATCH that changes the
 * type without restating them keeps these and drops the rest.
 */
export function rulesForType(type: FieldType, validation: FieldValidation, options: FieldOptions): { validation: FieldValidation; options: FieldOptions } {
  const keep = <T extends object>(rules: T, keys: readonly (keyof T)[]): T => Object.fromEntries(Object.entries(rules).filter(([key]) => keys.includes(key as keyof T))) as T;
  return { validation: keep(validation, validationKeysByType[type]), options: keep(options, optionKeysByType[type]) };
}
