import { isPlainObject } from '../../core/plain-object.ts';
import { fail, pass, type FieldTypeDefinition } from '../field-type.ts';
import { jsonText } from '../storage.ts';

const jsonMaxDepth = 100;

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

export const jsonField: FieldTypeDefinition = {
  widget: 'json-editor',
  holds: 'JSON values',
  validation: [],
  options: [],
  unique: false,
  changesTo: [],
  storage: jsonText,
  check(value) {
    const problem = jsonProblem(value, 0);
    return problem === undefined ? pass(value) : fail(problem);
  },
  // A json field's "", [] and {} are values like any other.
  isBlank: () => false,
  typeScript: () => 'unknown',
};
