import { fail, type FieldTypeDefinition } from '../field-type.ts';
import { sortedText } from '../storage.ts';
import { checkLength, ownText, textValidation } from '../text-checks.ts';

const slugValuePattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const slugValueMaxLength = 200;

export const slugField: FieldTypeDefinition = {
  widget: 'slug-input',
  holds: 'lower-case URL slugs',
  validation: textValidation,
  options: [],
  unique: true,
  changesTo: ['string', 'text'],
  storage: sortedText,
  check(value, validation) {
    if (typeof value !== 'string') return fail('Must be a string');
    if (!slugValuePattern.test(value)) return fail('Must be lower-case letters and digits joined by single hyphens, e.g. my-page-2');
    if (value.length > slugValueMaxLength) return fail(`Must be at most ${slugValueMaxLength} characters`);
    return checkLength(value, validation);
  },
  typeScript: () => 'string',
  searchText: ownText,
};
