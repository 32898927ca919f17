import { Suspense } from 'react';
import type { Field } from '../api/client';
import { useT } from '../i18n/i18n';
import { labelIdOf } from './input';
import { widgets } from './widgets/registry';
import './fields.css';

interface Props {
  field: Field;
  /** The widget's id; its label and its error take theirs from it. */
  id: string;
  value: unknown;
  error?: string;
  readOnly?: boolean;
  onChange: (value: unknown) => void;
}

/**
 * One field with the widget of its type (widgets/registry.tsx): its label, naming the widget as the
 * widget expects (`for` one input, or a group by aria-labelledby), and the API's complaint under it.
 */
export function FieldRow({ field, id, value, error, readOnly, onChange }: Props) {
  const t = useT();
  const { Widget, label } = widgets[field.type];
  const errorId = `${id}-error`;
  const text = (
    <>
      {field.label}
      {field.required && <span className="field-required"> {t('editor.field.required')}</span>}
    </>
  );
  return (
    <div className={`field field-${field.type}`}>
      {label === 'for' ? (
        <label className="field-label" htmlFor={id} id={labelIdOf(id)}>
          {text}
        </label>
      ) : (
        <span className="field-label" id={labelIdOf(id)}>
          {text}
        </span>
      )}
      <Suspense fallback={<p>{t('loading')}</p>}>
        <Widget field={field} value={value ?? undefined} onChange={onChange} id={id} errorId={errorId} error={error} readOnly={readOnly} />
      </Suspense>
      {error !== undefined && (
        <p id={errorId} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}
