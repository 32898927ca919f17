import type { FieldInputProps } from '../input';
import { inputAttributes } from './aria';

/** string, url and slug fields: one line of text (an empty line clears the value). */
export function TextInput(props: FieldInputProps<string>) {
  const type = props.field.type === 'url' ? 'url' : 'text';
  return (
    <input
      {...inputAttributes(props)}
      type={type}
      className="field-input"
      value={props.value ?? ''}
      maxLength={props.field.validation.maxLength}
      required={props.field.required}
      onChange={(event) => props.onChange(event.target.value === '' ? undefined : event.target.value)}
    />
  );
}
