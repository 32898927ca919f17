import { fail, type FieldTypeDefinition } from '../field-type.ts';
import { checkRange, rangeValidation } from './number.ts';

export const integerField: FieldTypeDefinition = {
  widget: 'integer-input',
  holds: 'whole numbers',
  validation: rangeValidation,
  options: [],
  unique: true,
  // Every integer is a number; the column turns from integer to real.
  changesTo: ['number'],
  storage: { encoding: 'number', column: 'integer', sort: 'integer' },
  check: (value, validation) =>
    typeof value === 'number' && Number.isSafeInteger(value) ? checkRange(value, validation) : fail('Must be a whole number within ±9007199254740991'),
  typeScript: () => 'number',
};
