import { useT } from '../../i18n/i18n';
import type { FieldInputProps } from '../input';
import { inputAttributes } from './aria';

/** select fields: the browser's own select (accessible as it is, and nothing to download), with "none" unless required. */
export function SelectInput(props: FieldInputProps<string>) {
  const t = useT();
  const options = props.field.validation.options ?? [];
  return (
    <select
      {...inputAttributes(props)}
      className="field-input"
      value={props.value ?? ''}
      disabled={props.readOnly}
      onChange={(event) => props.onChange(event.target.value === '' ? undefined : event.target.value)}
    >
      <option value="">{t('editor.field.none')}</option>
      {options.map((option) => (
        <option key={option} value={option}>
          {option}
        </option>
      ))}
    </select>
  );
}
