import { FieldIssue } from './FieldIssue';

interface Props {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** A sentence under the input, read with it. */
  hint?: string;
  /** The server's refusal of this input, said under it. */
  issue: string | undefined;
  required?: boolean;
  multiline?: boolean;
  /** A number is typed: the phone's keyboard offers digits. */
  numeric?: boolean;
}

/** A labelled text input of a form, its hint and its refusal under it, both read with it. */
export function TextSetting({ id, label, value, onChange, hint, issue, required, multiline, numeric }: Props) {
  const common = {
    id,
    className: 'field-input',
    value,
    required,
    'aria-describedby': `${hint ? `${id}-hint ` : ''}${id}-error`,
    'aria-invalid': issue ? true : undefined,
  };
  return (
    <div className="setting">
      <label htmlFor={id}>{label}</label>
      {multiline ? (
        <textarea {...common} rows={2} onChange={(event) => onChange(event.target.value)} />
      ) : (
        <input {...common} inputMode={numeric ? 'decimal' : undefined} onChange={(event) => onChange(event.target.value)} />
      )}
      {hint && (
        <p id={`${id}-hint`} className="setting-hint">
          {hint}
        </p>
      )}
      <FieldIssue id={`${id}-error`} message={issue} />
    </div>
  );
}
