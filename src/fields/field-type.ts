import type { ValidationIssue } from '../core/errors.ts';
import type { FieldOptions, FieldValidation } from './definition.ts';
import type { FieldType } from './names.ts';
import type { Storage } from './storage.ts';

/**
 * Everything Folio knows about one field type, in one object (docs/decisions/0041): a type is added
 * by writing one of these in `types/` and registering it in registry.ts.
 */
export interface FieldTypeDefinition {
  /** What the admin panel shows to edit a value (GET /schema/field-types). */
  widget: string;
  /** What the type's fields hold, to finish "… fields hold …" when a type change is refused. */
  holds: string;
  /** The `validation` keys that mean something for this type; any other is refused so a typo surfaces. */
  validation: readonly (keyof FieldValidation)[];
  /** The `options` keys that mean something for this type. */
  options: readonly (keyof FieldOptions)[];
  /** `validation.min`/`max` count items, so they must be whole numbers, 0 or more. */
  boundsCount?: true;
  /** The rules of a definition that its keys alone do not say (a select needs options). */
  definitionIssues?(validation: FieldValidation, options: FieldOptions): ValidationIssue[];
  /** Whether a unique index makes sense: short scalar values compared whole. */
  unique: boolean;
  /** The types a field may change to with every stored value still valid as it is, in the order messages list them. */
  changesTo: readonly FieldType[];
  storage: Storage;
  /** Checks one non-null value against the field's validation and returns it as it is stored. */
  check(value: unknown, validation: FieldValidation): ValueCheck;
  /** Whether a value counts as "no value" for `required`; absent: empty text and empty lists do. */
  isBlank?(value: unknown): boolean;
  /** The TypeScript type of a value in GET /schema?format=typescript. */
  typeScript(validation: FieldValidation): string;
  /** The text a searchable field adds to its entry's search document; absent: none. */
  searchText?(value: unknown): string;
  /** What else a value names, which must exist when it is saved: an entry of `options.collection`, or a media item. */
  pointsAt?: 'entry' | 'media';
}

export type ValueCheck = { ok: true; value: unknown } | { ok: false; message: string };

export function pass(value: unknown): ValueCheck {
  return { ok: true, value };
}

export function fail(message: string): ValueCheck {
  return { ok: false, message };
}
