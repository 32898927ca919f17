import type { FieldValidation } from './definition.ts';
import { fail, pass, type ValueCheck } from './field-type.ts';
import { compilePattern, patternValueMaxLength } from './patterns.ts';

/** The `validation` keys of the types whose values are text. */
export const textValidation = ['minLength', 'maxLength', 'pattern'] as const;

/** Lengths count characters (code points), so an emoji is one, as an author would count it. */
function characterCount(text: string): number {
  let count = 0;
  for (const _character of text) count++;
  return count;
}

/** A text value against `minLength`, `maxLength` and `pattern`. */
export function checkLength(text: string, validation: FieldValidation): ValueCheck {
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

/** The search text of a type whose value is its text. */
export function ownText(value: unknown): string {
  return String(value);
}
