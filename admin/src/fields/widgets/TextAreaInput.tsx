import type { FieldInputProps } from '../input';
import { inputAttributes } from './aria';

/** text fields: several lines, as many rows as the field's `options.rows` asks for. */
export function TextAreaInput(props: FieldInputProps<string>) {
  return (
    <textarea
      {...inputAttributes(props)}
      className="field-input"
      rows={props.field.options.rows ?? 5}
      value={props.value ?? ''}
      maxLength={props.field.validation.maxLength}
      required={props.field.required}
      onChange={(event) => props.onChange(event.target.value === '' ? undefined : event.target.value)}
    />
  );
}
