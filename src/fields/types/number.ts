import type { FieldValidation } from '../definition.ts';
import { fail, pass, type FieldTypeDefinition, type ValueCheck } from '../field-type.ts';

/** The `validation` keys of the numeric types. */
export const rangeValidation = ['min', 'max'] as const;

export function checkRange(value: number, validation: FieldValidation): ValueCheck {
  if (validation.min !== undefined && value < validation.min) return fail(`Must be at least ${validation.min}`);
  if (validation.max !== undefined && value > validation.max) return fail(`Must be at most ${validation.max}`);
  return pass(value);
}

export const numberField: FieldTypeDefinition = {
  widget: 'number-input',
  holds: 'numbers',
  validation: rangeValidation,
  options: [],
  unique: true,
  changesTo: [],
  storage: { encoding: 'number', column: 'real', sort: 'real' },
  check: (value, validation) => (typeof value === 'number' && Number.isFinite(value) ? checkRange(value, validation) : fail('Must be a finite number')),
  typeScript: () => 'number',
};
