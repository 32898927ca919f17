import type { ContentCollection, Field } from '../../api/client';
import { titleFieldOf } from '../../entries';
import { FieldRow } from '../../fields/FieldRow';
import type { EntrySession, SessionState } from './session';
import { slugify } from './values';

/**
 * The entry's fields, one row each with the widget of its type (fields/FieldRow.tsx) and the API's
 * complaint under it. A slug field follows the title while it still reads as the title's slug (or
 * is empty): once edited by hand, it stays as typed.
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
        <FieldRow key={field.slug} field={field} id={`field-${field.slug}`} value={values[field.slug]} error={state.issues[field.slug]} readOnly={readOnly} onChange={(value) => change(field, value)} />
      ))}
    </form>
  );
}
