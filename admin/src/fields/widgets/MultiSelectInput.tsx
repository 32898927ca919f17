import type { FieldInputProps } from '../input';
import { labelIdOf } from '../input';

/** multiSelect fields: one checkbox per option, in a group the field's label names; the value keeps the options' order. */
export function MultiSelectInput(props: FieldInputProps<string[]>) {
  const options = props.field.validation.options ?? [];
  const chosen = new Set(props.value ?? []);
  const toggle = (option: string, on: boolean) => {
    const next = options.filter((candidate) => (candidate === option ? on : chosen.has(candidate)));
    props.onChange(next);
  };
  return (
    <div
      id={props.id}
      role="group"
      className="field-choices"
      aria-labelledby={labelIdOf(props.id)}
      aria-describedby={props.error !== undefined ? props.errorId : undefined}
    >
      {options.map((option, index) => (
        <label key={option} className="field-choice">
          <input type="checkbox" id={`${props.id}-${index}`} checked={chosen.has(option)} disabled={props.readOnly} aria-invalid={props.error !== undefined ? true : undefined} onChange={(event) => toggle(option, event.target.checked)} />
          {option}
        </label>
      ))}
    </div>
  );
}
