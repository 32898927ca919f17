/**
 * A form made from a plugin's settings schema (JSON Schema, as zod writes it): each property becomes
 * a field of the kind its type asks for; what no plain field can hold (a list, an object) is edited
 * as JSON. Values are held as typed, then turned back into what the schema takes when sent.
 */
export interface PropertySchema {
  type?: string;
  title?: string;
  description?: string;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  default?: unknown;
}

export interface ObjectSchema {
  properties?: Record<string, PropertySchema>;
  required?: string[];
}

export type FieldKind = 'integer' | 'number' | 'boolean' | 'choice' | 'text' | 'json';

export interface FormField {
  key: string;
  label: string;
  kind: FieldKind;
  schema: PropertySchema;
  required: boolean;
}

export type FormValue = string | boolean;

function kindOf(schema: PropertySchema): FieldKind {
  if (schema.enum && schema.enum.every((option) => typeof option === 'string')) return 'choice';
  if (schema.type === 'integer' || schema.type === 'number' || schema.type === 'boolean') return schema.type;
  if (schema.type === 'string') return 'text';
  return 'json';
}

/** `retentionDays` → "Retention days": a setting's label when its schema gives no title. */
export function labelOf(key: string): string {
  const words = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function formFields(schema: ObjectSchema): FormField[] {
  return Object.entries(schema.properties ?? {}).map(([key, property]) => ({
    key,
    label: property.title ?? labelOf(key),
    kind: kindOf(property),
    schema: property,
    // A setting with a default may be left empty: the plugin takes its default.
    required: (schema.required ?? []).includes(key) && property.default === undefined,
  }));
}

/** The form's values for the settings as stored. */
export function formValues(fields: FormField[], settings: Record<string, unknown>): Record<string, FormValue> {
  return Object.fromEntries(
    fields.map((field) => {
      const value = settings[field.key] ?? field.schema.default;
      if (field.kind === 'boolean') return [field.key, value === true];
      if (field.kind === 'json') return [field.key, value === undefined ? '' : JSON.stringify(value, null, 2)];
      return [field.key, value === undefined || value === null ? '' : String(value)];
    }),
  );
}

/**
 * The settings to send, or the fields whose text is not what their kind takes (JSON that does not
 * parse). An empty field is left out, so the plugin's default applies; the server checks the rest.
 */
export function settingsOf(fields: FormField[], values: Record<string, FormValue>): { settings: Record<string, unknown> } | { invalid: string[] } {
  const settings: Record<string, unknown> = {};
  const invalid: string[] = [];
  for (const field of fields) {
    const value = values[field.key];
    if (typeof value === 'boolean') {
      settings[field.key] = value;
      continue;
    }
    if (value === undefined || value.trim() === '') continue;
    if (field.kind === 'integer' || field.kind === 'number') settings[field.key] = Number(value);
    else if (field.kind === 'json') {
      try {
        settings[field.key] = JSON.parse(value);
      } catch {
        invalid.push(field.key);
      }
    } else settings[field.key] = value;
  }
  return invalid.length > 0 ? { invalid } : { settings };
}
