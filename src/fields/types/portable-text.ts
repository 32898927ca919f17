import { normalizePortableText, portableTextToPlainText } from '../../content/portable-text.ts';
import type { PortableTextBlock } from '../../content/value-types.ts';
import { fail, pass, type FieldTypeDefinition } from '../field-type.ts';
import { jsonText } from '../storage.ts';

/** Rich text; Markdown is converted (DECISIONS §3: models write Markdown far more reliably than block JSON). */
export const portableTextField: FieldTypeDefinition = {
  widget: 'rich-text',
  holds: 'Portable Text blocks',
  validation: [],
  options: [],
  unique: false,
  changesTo: ['json'],
  storage: jsonText,
  check(value) {
    const normalized = normalizePortableText(value);
    if (normalized.ok) return pass(normalized.blocks);
    return fail(normalized.issues.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message)).join('; '));
  },
  typeScript: () => 'PortableTextBlock[]',
  searchText: (value) => portableTextToPlainText(value as PortableTextBlock[]),
};
