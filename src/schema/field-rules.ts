import type { ValidationIssue } from '../core/errors.ts';
import { columnKind } from '../fields/columns.ts';
import { compilePattern } from '../fields/patterns.ts';
import type { FieldOptions, FieldValidation } from '../fields/definition.ts';
import { fieldTypes, type FieldType } from '../fields/names.ts';
import { fieldType } from '../fields/registry.ts';
import { checkFieldValue, isBlankValue } from '../fields/values.ts';

/** The parts of a field definition whose consistency these rules check (DECISIONS §4). */
export interface FieldDefinitionInput {
  type: FieldType;
  validation?: FieldValidation;
  options?: FieldOptions;
  defaultValue?: unknown;
  required?: boolean;
  unique?: boolean;
}

/** Every inconsistency in a field definition, at paths like `validation.min`. */
export function fieldDefinitionIssues(definition: FieldDefinitionInput): ValidationIssue[] {
  const { type } = definition;
  const rules = fieldType(type);
  const validation = definition.validation ?? {};
  const options = definition.options ?? {};
  const issues: ValidationIssue[] = [];
  const add = (path: string, message: string) => issues.push({ path, message });

  for (const key of definedKeys(validation)) {
    if (!rules.validation.includes(key)) add(`validation.${key}`, `Does not apply to ${type} fields`);
  }
  for (const key of definedKeys(options)) {
    if (!rules.options.includes(key)) add(`options.${key}`, `Does not apply to ${type} fields`);
  }
  checkBounds(validation.min, validation.max, 'min', 'max', rules.boundsCount === true, add);
  checkBounds(validation.minLength, validation.maxLength, 'minLength', 'maxLength', true, add);
  if (validation.pattern !== undefined) {
    const problem = patternProblem(validation.pattern);
    if (problem !== undefined) add('validation.pattern', problem);
  }
  issues.push(...(rules.definitionIssues?.(validation, options) ?? []));
  if (definition.unique && !rules.unique) {
    add('unique', `A ${type} field cannot be unique (only ${fieldTypes.filter((other) => fieldType(other).unique).join(', ')})`);
  }

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

/** Why a pattern is refused: too long, or the engine cannot run it (fields/patterns.ts). */
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
 * Why a field cannot change from one type to another, or undefined when it can: only to a type every
 * stored value is valid in as it is (each type's `changesTo`).
 */
export function typeChangeProblem(from: FieldType, to: FieldType): string | undefined {
  const { changesTo } = fieldType(from);
  if (from === to || changesTo.includes(to)) return undefined;
  const storage = columnKind(from) === columnKind(to) ? '' : `, and the column would change from ${columnKind(from)} to ${columnKind(to)}`;
  const allowed = changesTo.length > 0 ? changesTo.join(', ') : 'none';
  return `Cannot change a field from ${from} to ${to}: ${to} fields hold ${fieldType(to).holds}, which stored ${from} values are not guaranteed to be${storage}. Allowed changes from ${from}: ${allowed}`;
}

/**
 * The rules of a definition that still mean something after a type change; a PATCH that changes the
 * type without restating them keeps these and drops the rest.
 */
export function rulesForType(type: FieldType, validation: FieldValidation, options: FieldOptions): { validation: FieldValidation; options: FieldOptions } {
  const keep = <T extends object>(rules: T, keys: readonly (keyof T)[]): T => Object.fromEntries(Object.entries(rules).filter(([key]) => keys.includes(key as keyof T))) as T;
  return { validation: keep(validation, fieldType(type).validation), options: keep(options, fieldType(type).options) };
}
