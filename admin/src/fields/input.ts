import type { Field } from '../api/client';

/**
 * What the entry editor gives every field's widget: the field as the collection declares it, its value,
 * a way to change it, and the API's complaint about it (a 400's `details` for this field), shown at the
 * field. The ids let a widget name its label and its message for assistive technology.
 */
export interface FieldInputProps<Value> {
  field: Field;
  value: Value | undefined;
  onChange: (value: Value | undefined) => void;
  /** The id of the widget's input, which its label names. */
  id: string;
  /** The id of the element that says what is wrong, when something is. */
  errorId: string;
  error?: string;
  readOnly?: boolean;
}

/** The id of a field's label, for widgets that are groups (a list of checkboxes, a picker) and name themselves with aria-labelledby. */
export function labelIdOf(id: string): string {
  return `${id}-label`;
}
