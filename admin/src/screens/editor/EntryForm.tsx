import { Suspense } from 'react';
import type { ContentCollection, Field } from '../../api/client';
import { titleFieldOf } from '../../entries';
import { labelIdOf } from '../../fields/input';
import { widgets } from '../../fields/widgets/registry';
import { useT } from '../../i18n/i18n';
import type { EntrySession, SessionState } from './session';
import { slugify } from './values';

/**
 * The entry's fields, one widget each by type (fields/widgets/registry.tsx), with the API's
 * complaint under the field it is about. A slug field follows the title while it still reads as the
 * title's slug (or is empty): once edited by hand, it stays as typed.
 */
export function EntryForm({ collection, session, state }: { collection: ContentCollection; session: EntrySession; state: SessionState }) {
  const values = { ...(state.entry?.data ?? {}), ...state.edits };
  const titleSlug = titleFieldOf(collection);
  const readOnly = state.trashed;
  const change = (field: Field, value: unknown) => {
    if (field.slug === titleSlug) {
      const before = typeof values[field.slug] === 'string' ? (values[field.slug] as string) : '';
      for (const slugField of collection.fields.filter((candidate) => candidate.type === 'slug')) {
        const current = values[slugField.slug];
        if (current === undefined || current === null || current === '' || current === slugify(before)) {
          const next = slugify(typeof value === 'string' ? value : '');
          session.change(slugField.slug, next === '' ? undefined : next);
        }
      }
    }
    session.change(field.slug, value);
  };
  return (
    <form className="entry-form" onSubmit={(event) => event.preventDefault()} noValidate>
      {collection.fields.map((field) => (
        <FieldRow key={field.slug} field={field} value={values[field.slug]} error={state.issues[field.slug]} readOnly={readOnly} onChange={(value) => change(field, value)} />
      ))}
    </form>
  );
}

function FieldRow({ field, value, error, readOnly, onChange }: { field: Field; value: unknown; error?: string; readOnly: boolean; onChange: (value: unknown) => void }) {
  const t = useT();
  const { Widget, label } = widgets[field.type];
  const id = `field-${field.slug}`;
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
