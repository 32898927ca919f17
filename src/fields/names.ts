/**
 * The field types by their names on the wire, in the order the API lists them. The names stand apart
 * from the registry (registry.ts) because every type's definition names others (the types a field may
 * change to) and a definition names its type: both would otherwise import the registry that imports them.
 */
export const fieldTypes = ['string', 'text', 'number', 'integer', 'boolean', 'datetime', 'select', 'multiSelect', 'portableText', 'image', 'file', 'reference', 'json', 'slug', 'url'] as const;

export type FieldType = (typeof fieldTypes)[number];
