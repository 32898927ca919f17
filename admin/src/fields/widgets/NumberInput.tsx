import { useState } from 'react';
import type { FieldInputProps } from '../input';
import { inputAttributes } from './aria';

/**
 * number and integer fields. What is typed is kept as typed ("1." on its way to "1.5") and the value
 * changes once it reads as a number; an empty box clears it.
 */
export function NumberInput(props: FieldInputProps<number>) {
  const [text, setText] = useState(props.value === undefined || props.value === null ? '' : String(props.value));
  const shown = Number(text) === props.value || (text === '' && props.value == null) ? text : String(props.value ?? '');
  return (
    <input
      {...inputAttributes(props)}
      type="number"
      className="field-input field-number"
      step={props.field.type === 'integer' ? 1 : 'any'}
      min={props.field.validation.min}
      max={props.field.validation.max}
      value={shown}
      onChange={(event) => {
        const typed = event.target.value;
        setText(typed);
        if (typed === '') props.onChange(undefined);
        else if (Number.isFinite(Number(typed))) props.onChange(Number(typed));
      }}
    />
  );
}
