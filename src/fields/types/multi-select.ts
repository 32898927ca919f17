import type { FieldValidation } from '../definition.ts';
import { fail, pass, type FieldTypeDefinition, type ValueCheck } from '../field-type.ts';
import { jsonText } from '../storage.ts';
import { rangeValidation } from './number.ts';
import { listOptions, optionsIssues, optionUnion } from './select.ts';

/** `validation.min`/`max` of a multiSelect count the chosen options. */
function checkMultiSelect(value: unknown, validation: FieldValidation): ValueCheck {
  if (!Array.isArray(value)) return fail(`Must be a list of options from: ${listOptions(validation)}`);
  const allowed = validation.options ?? [];
  const wrong = value.find((item) => typeof item !== 'string' || !allowed.includes(item));
  if (wrong !== undefined) return fail(`${JSON.stringify(wrong)} is not an option; options: ${listOptions(validation)}`);
  if (new Set(value).size !== value.length) return fail('Must not repeat an option');
  if (validation.min !== undefined && value.length < validation.min) return fail(`Must have at least ${validation.min} options chosen`);
  if (validation.max !== undefined && value.length > validation.max) return fail(`Must have at most ${validation.max} options chosen`);
  return pass(value);
}

export const multiSelectField: FieldTypeDefinition = {
  widget: 'multi-select',
  holds: 'lists of its options',
  validation: ['options', ...rangeValidation],
  options: [],
  boundsCount: true,
  definitionIssues: (validation) => optionsIssues('multiSelect', validation),
  unique: false,
  changesTo: ['json'],
  storage: jsonText,
  check: checkMultiSelect,
  typeScript: (validation) => `(${optionUnion(validation)})[]`,
  searchText: (value) => (value as string[]).join(' '),
};
