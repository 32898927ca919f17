import type { Field } from '../api/client';

/**
 * A field's definition for a widget used outside an entry (a menu item's entry picker, a section's
 * or a widget's Portable Text): the widgets take a field, and read only its type and options.
 */
export function standaloneField(type: Field['type'], slug: string, label: string, options: Field['options'] = {}): Field {
  return { id: `standalone-${slug}`, slug, label, type, required: false, unique: false, validation: {}, options, searchable: false, translatable: false, sortOrder: 0, createdAt: '', updatedAt: '' };
}
