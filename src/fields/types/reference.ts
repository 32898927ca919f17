import { fail, pass, type FieldTypeDefinition } from '../field-type.ts';
import { unsortedText } from '../storage.ts';

export const ulidPattern = /^[0-9A-HJKMNP-TV-Z]{26}$/;

/** The id of an entry of `options.collection`; the caller finds it there before saving. */
export const referenceField: FieldTypeDefinition = {
  widget: 'entry-picker',
  holds: 'entry ids',
  validation: [],
  options: ['collection'],
  definitionIssues: (_validation, options) =>
    options.collection ? [] : [{ path: 'options.collection', message: 'A reference field needs the slug of its target collection' }],
  unique: true,
  changesTo: ['string', 'text'],
  storage: unsortedText,
  check: (value) => (typeof value === 'string' && ulidPattern.test(value) ? pass(value) : fail('Must be an entry id (a 26-character ULID)')),
  typeScript: () => 'string',
  pointsAt: 'entry',
};
