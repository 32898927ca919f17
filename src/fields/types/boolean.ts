import { fail, pass, type FieldTypeDefinition } from '../field-type.ts';

export const booleanField: FieldTypeDefinition = {
  widget: 'checkbox',
  holds: 'true or false',
  validation: [],
  options: [],
  unique: false,
  changesTo: [],
  // Stored as 0/1, but sorted as booleans: JSON `true` is not `1` on PostgreSQL (live sort values).
  storage: { encoding: 'boolean', column: 'integer', sort: 'boolean' },
  check: (value) => (typeof value === 'boolean' ? pass(value) : fail('Must be true or false')),
  typeScript: () => 'boolean',
};
