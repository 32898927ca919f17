import type { FieldDefinition } from '../../src/fields/definition.ts';
import type { FieldType } from '../../src/fields/names.ts';

const stamp = '2026-01-01T00:00:00.000Z';

/** A complete field definition for tests of pure functions; `extra` overrides any part. */
export function fieldDefinition(slug: string, type: FieldType, extra: Partial<FieldDefinition> = {}): FieldDefinition {
  return {
    id: `F_${slug}`,
    slug,
    label: slug,
    type,
    required: false,
    unique: false,
    validation: {},
    options: {},
    searchable: false,
    translatable: true,
    sortOrder: 0,
    createdAt: stamp,
    updatedAt: stamp,
    ...extra,
  };
}
