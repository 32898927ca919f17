import type { ValidationIssue } from '../../core/errors.ts';
import type { FieldValidation } from '../definition.ts';
import { fail, pass, type FieldTypeDefinition } from '../field-type.ts';
import { sortedText } from '../storage.ts';
import { ownText } from '../text-checks.ts';

/** The options of a select or multiSelect, as messages list them. */
export function listOptions(validation: FieldValidation): string {
  return (validation.options ?? []).map((option) => JSON.stringify(option)).join(', ');
}

/** The options as a union of string literals (any string when there are none, which definitions do not allow). */
export function optionUnion(validation: FieldValidation): string {
  const options = validation.options ?? [];
  return options.length > 0 ? options.map((option) => JSON.stringify(option)).join(' | ') : 'string';
}

/** A select or multiSelect needs distinct, non-empty options to choose from. */
export function optionsIssues(type: string, validation: FieldValidation): ValidationIssue[] {
  const choices = validation.options;
  const issue = (message: string) => [{ path: 'validation.options', message }];
  if (choices === undefined || choices.length === 0) return issue(`A ${type} field needs a non-empty list of options`);
  if (choices.some((choice) => typeof choice !== 'string' || choice === '')) return issue('Options must be non-empty strings');
  if (new Set(choices).size !== choices.length) return issue('Options must be distinct');
  return [];
}

export const selectField: FieldTypeDefinition = {
  widget: 'select',
  holds: 'one of its options',
  validation: ['options'],
  options: [],
  definitionIssues: (validation) => optionsIssues('select', validation),
  unique: true,
  changesTo: ['string', 'text'],
  storage: sortedText,
  check: (value, validation) =>
    typeof value === 'string' && (validation.options ?? []).includes(value) ? pass(value) : fail(`Must be one of: ${listOptions(validation)}`),
  typeScript: optionUnion,
  searchText: ownText,
};
