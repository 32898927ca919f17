import type { FieldInputProps } from '../input';

/** What every widget's input carries: its id (named by the label) and, when the API complained, the complaint. */
export function inputAttributes<Value>(props: FieldInputProps<Value>) {
  return {
    id: props.id,
    'aria-invalid': props.error !== undefined ? true : undefined,
    'aria-describedby': props.error !== undefined ? props.errorId : undefined,
    readOnly: props.readOnly,
  } as const;
}
