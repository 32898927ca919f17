import type { Schemas } from '../../api/client';
import { toggled } from '../../choices';
import { useT } from '../../i18n/i18n';
import { FieldIssue } from '../../shell/FieldIssue';
import { TextSetting } from '../../shell/TextSetting';

type Feature = Schemas['Collection']['supports'][number];

/** Every feature a collection may support, in the API's order. */
export const features: readonly Feature[] = ['drafts', 'revisions', 'preview', 'scheduling', 'search'];

/** What the collection form edits; the slug only when creating (it names the collection's table). */
export interface CollectionValues {
  slug: string;
  label: string;
  labelSingular: string;
  description: string;
  supports: Feature[];
  urlPattern: string;
}

interface Props {
  /** Prefixes the inputs' ids, so two forms on one page do not share them. */
  id: string;
  values: CollectionValues;
  onChange: (values: CollectionValues) => void;
  /** The server's refusal at a field (`label`, `supports`, …). */
  issueAt: (field: string) => string | undefined;
  /** Offered when creating: the slug, suggested from the label until the person writes their own. */
  slug?: { onSlugChange: (slug: string) => void };
}

/** The inputs of a collection: shared by the new collection's form and the one that edits a collection. */
export function CollectionFields({ id, values, onChange, issueAt, slug }: Props) {
  const t = useT();
  const set = (change: Partial<CollectionValues>) => onChange({ ...values, ...change });
  const text = (key: 'label' | 'labelSingular' | 'description' | 'urlPattern' | 'slug', options: { required?: boolean; hint?: string; multiline?: boolean; onInput?: (value: string) => void } = {}) => (
    <TextSetting
      id={`${id}-${key}`}
      label={t(`schema.collection.${key}` as const)}
      value={values[key]}
      onChange={options.onInput ?? ((value) => set({ [key]: value }))}
      hint={options.hint}
      issue={issueAt(key)}
      required={options.required}
      multiline={options.multiline}
    />
  );
  return (
    <>
      {text('label', { required: true, hint: t('schema.collection.label.hint') })}
      {slug && text('slug', { required: true, hint: t('schema.slug.hint'), onInput: slug.onSlugChange })}
      {text('labelSingular')}
      {text('description', { multiline: true })}
      <fieldset className="setting choice-list" aria-describedby={`${id}-supports-error`}>
        <legend>{t('schema.collection.supports')}</legend>
        {features.map((feature) => (
          <label key={feature}>
            <input type="checkbox" checked={values.supports.includes(feature)} onChange={(event) => set({ supports: toggled(features, values.supports, feature, event.target.checked) })} />{' '}
            {t(`schema.feature.${feature}` as const)}
          </label>
        ))}
        <FieldIssue id={`${id}-supports-error`} message={issueAt('supports')} />
      </fieldset>
      {text('urlPattern', { hint: t('schema.collection.urlPattern.hint') })}
    </>
  );
}

const trimmed = (value: string) => (value.trim() === '' ? undefined : value.trim());

/** The body of a new collection: blank optional texts left out. */
export const newCollectionBody = (values: CollectionValues) => ({
  slug: values.slug,
  label: values.label,
  labelSingular: trimmed(values.labelSingular),
  description: trimmed(values.description),
  supports: values.supports,
  urlPattern: trimmed(values.urlPattern),
});

/** The body of a change: a blank optional text clears it. */
export const changedCollectionBody = (values: CollectionValues) => ({
  label: values.label,
  labelSingular: trimmed(values.labelSingular) ?? null,
  description: trimmed(values.description) ?? null,
  supports: values.supports,
  urlPattern: trimmed(values.urlPattern) ?? null,
});
