import type { FieldType } from './names.ts';

/** A field as a collection defines it: what every field type reads of its own definition. */

export interface FieldValidation {
  min?: number;
  max?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  /** Allowed values of `select` and `multiSelect`. */
  options?: string[];
}

export interface FieldOptions {
  /** Target collection slug of a `reference` field. */
  collection?: string;
  /** Suggested textarea height of a `text` field. */
  rows?: number;
}

export interface FieldDefinition {
  id: string;
  slug: string;
  label: string;
  type: FieldType;
  required: boolean;
  unique: boolean;
  defaultValue?: unknown;
  validation: FieldValidation;
  options: FieldOptions;
  searchable: boolean;
  translatable: boolean;
  sortOrder: number;
  createdAt: string;
  updatedAt: string;
}
