import { fail, type FieldTypeDefinition } from '../field-type.ts';
import { sortedText } from '../storage.ts';
import { checkLength, ownText, textValidation } from '../text-checks.ts';

/**
 * `string` is the short, sortable text type: its values are indexed, and PostgreSQL refuses an index
 * entry past about 2,700 bytes. 500 characters (at most 2,000 bytes of UTF-8) keeps every value
 * indexable; `text` has no such limit.
 */
const stringValueMaxLength = 500;

export const stringField: FieldTypeDefinition = {
  widget: 'text-input',
  holds: 'text',
  validation: textValidation,
  options: [],
  unique: true,
  changesTo: ['text'],
  storage: sortedText,
  check(value, validation) {
    if (typeof value !== 'string') return fail('Must be a string');
    if (value.length > stringValueMaxLength) return fail(`Must be at most ${stringValueMaxLength} characters (use a text field for longer text)`);
    return checkLength(value, validation);
  },
  typeScript: () => 'string',
  searchText: ownText,
};
