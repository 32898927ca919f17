import type { FieldInputProps } from '../input';
import { inputAttributes } from './aria';

/** boolean fields: a checkbox, which the field's label names. */
export function BooleanInput(props: FieldInputProps<boolean>) {
  return (
    <input
      {...inputAttributes(props)}
      type="checkbox"
      className="field-checkbox"
      checked={props.value === true}
      disabled={props.readOnly}
      onChange={(event) => props.onChange(event.target.checked)}
    />
  );
}
