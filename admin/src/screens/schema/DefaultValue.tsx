import type { Schemas } from '../../api/client';
import { FieldRow } from '../../fields/FieldRow';
import { standaloneField } from '../../fields/standalone';
import { useT } from '../../i18n/i18n';

type FieldType = Schemas['Field']['type'];

/**
 * The types whose default this form leaves out (the API still takes one). A Portable Text default
 * would put a whole rich-text editor, and its chunk, inside the field form; an image, file or
 * reference default is the id of one media item or entry, which only the media library's or the
 * entry picker's dialog could choose, over a form that is itself in a dialog when a field is edited.
 */
const withoutDefaultInput: ReadonlySet<FieldType> = new Set(['portableText', 'image', 'file', 'reference']);

export const offersDefault = (type: FieldType) => !withoutDefaultInput.has(type);

interface Props {
  /** The input's id (the form's prefix keeps the add form's apart from an edit dialog's). */
  id: string;
  type: FieldType;
  /** The choices typed so far, for a select's or multiSelect's default. */
  choices: string[];
  value: unknown;
  issue: string | undefined;
  onChange: (value: unknown) => void;
}

/**
 * A field's default, typed with the entry editor's own widget for the type: what an entry gets
 * when it is created without the field. The widget is given the choices and no other rule, so a
 * default out of the rules is the server's to refuse, said here in the words every refusal has
 * (a browser's own check would stop the form with a bubble of its own, or cut the text at maxLength).
 */
export function DefaultValue({ id, type, choices, value, issue, onChange }: Props) {
  const t = useT();
  const field = { ...standaloneField(type, 'defaultValue', t('schema.field.defaultValue')), validation: { options: choices } };
  // Keyed by type: a widget's own state (a number as typed) belongs to the type it was typed for.
  return <FieldRow key={type} field={field} id={id} value={value} error={issue} onChange={onChange} />;
}
