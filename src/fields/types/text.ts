import { fail, type FieldTypeDefinition } from '../field-type.ts';
import { unsortedText } from '../storage.ts';
import { checkLength, ownText, textValidation } from '../text-checks.ts';

/** Text of any length: not indexed, so neither sortable nor unique. */
export const textField: FieldTypeDefinition = {
  widget: 'textarea',
  holds: 'text',
  validation: textValidation,
  options: ['rows'],
  unique: false,
  changesTo: ['string'],
  storage: unsortedText,
  check: (value, validation) => (typeof value === 'string' ? checkLength(value, validation) : fail('Must be a string')),
  typeScript: () => 'string',
  searchText: ownText,
};
