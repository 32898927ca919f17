import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { api, dataOf, refusalOf, type Schemas } from '../../api/client';
import { collectionsQuery } from '../../api/queries';
import { useT } from '../../i18n/i18n';
import { FieldIssue } from '../../shell/FieldIssue';
import { FormEnd } from '../../shell/FormEnd';
import { TextSetting } from '../../shell/TextSetting';
import { DefaultValue, offersDefault } from './DefaultValue';
import { fieldTypesQuery } from './queries';
import { slugFrom } from '../../slugs';

type Field = Schemas['Field'];
type FieldType = Field['type'];
type TypeInfo = Schemas['FieldType'];

/** The form's values: numbers as typed (blank is no rule), a select's options one per line, the default as its widget gives it (undefined for none). */
interface Values {
  slug: string;
  label: string;
  type: FieldType;
  required: boolean;
  unique: boolean;
  searchable: boolean;
  translatable: boolean;
  min: string;
  max: string;
  minLength: string;
  maxLength: string;
  pattern: string;
  choices: string;
  collection: string;
  rows: string;
  defaultValue: unknown;
}

const numberText = (value: number | undefined) => (value === undefined ? '' : String(value));

function valuesOf(field: Field | undefined): Values {
  return {
    slug: field?.slug ?? '',
    label: field?.label ?? '',
    type: field?.type ?? 'string',
    required: field?.required ?? false,
    unique: field?.unique ?? false,
    searchable: field?.searchable ?? false,
    translatable: field?.translatable ?? true,
    min: numberText(field?.validation.min),
    max: numberText(field?.validation.max),
    minLength: numberText(field?.validation.minLength),
    maxLength: numberText(field?.validation.maxLength),
    pattern: field?.validation.pattern ?? '',
    choices: (field?.validation.options ?? []).join('\n'),
    collection: field?.options.collection ?? '',
    rows: numberText(field?.options.rows),
    defaultValue: field?.defaultValue,
  };
}

const choicesOf = (text: string) => text.split('\n').map((line) => line.trim()).filter((line) => line !== '');

/**
 * The rules the chosen type accepts, from what was typed. A number that is not one is sent as it is
 * typed, so the server names the field that is wrong rather than the form dropping it.
 */
function bodyOf(values: Values, info: TypeInfo | undefined) {
  const accepts = (key: TypeInfo['validation'][number]) => info?.validation.includes(key) ?? false;
  const number = (text: string) => (text.trim() === '' ? undefined : Number.isNaN(Number(text)) ? (text as unknown as number) : Number(text));
  const validation = {
    min: accepts('min') ? number(values.min) : undefined,
    max: accepts('max') ? number(values.max) : undefined,
    minLength: accepts('minLength') ? number(values.minLength) : undefined,
    maxLength: accepts('maxLength') ? number(values.maxLength) : undefined,
    pattern: accepts('pattern') && values.pattern !== '' ? values.pattern : undefined,
    options: accepts('options') ? choicesOf(values.choices) : undefined,
  };
  const options = {
    collection: info?.options.includes('collection') && values.collection !== '' ? values.collection : undefined,
    rows: info?.options.includes('rows') ? number(values.rows) : undefined,
  };
  return {
    label: values.label,
    type: values.type,
    required: values.required,
    unique: info?.unique ? values.unique : false,
    searchable: info?.searchable ? values.searchable : false,
    translatable: values.translatable,
    validation,
    options,
    // A cleared default is removed (null); a type the form offers no default for keeps the one it has.
    defaultValue: offersDefault(values.type) ? (values.defaultValue ?? null) : undefined,
  };
}

interface Props {
  collection: string;
  /** The field to change; absent, the form adds one. */
  field?: Field;
  /** Prefixes the inputs' ids (the add form and an edit dialog are on one page). */
  id: string;
  onDone: (field: Field) => void;
  /** Beside the submit button (an edit dialog's Cancel). */
  extraButtons?: ReactNode;
}

/**
 * A field's form, to add one or change one: its label and slug, its type (a change offers only the
 * types its stored values survive), and the rules and options that type accepts, as
 * GET /schema/field-types lists them. The server's refusals are said at their inputs.
 */
export function FieldForm({ collection, field, id, onDone, extraButtons }: Props) {
  const t = useT();
  const queryClient = useQueryClient();
  const types = useQuery(fieldTypesQuery);
  const collections = useQuery(collectionsQuery);
  const [values, setValues] = useState(() => valuesOf(field));
  const [slugTouched, setSlugTouched] = useState(field !== undefined);
  const info = types.data?.items.find((candidate) => candidate.type === values.type);
  const save = useMutation({
    mutationFn: () => {
      const body = bodyOf(values, info);
      return field
        ? dataOf(api.PATCH('/_cms/api/schema/collections/{collectionSlug}/fields/{fieldSlug}', { params: { path: { collectionSlug: collection, fieldSlug: field.slug } }, body }))
        : dataOf(api.POST('/_cms/api/schema/collections/{slug}/fields', { params: { path: { slug: collection } }, body: { slug: values.slug, ...body } }));
    },
    onSuccess: async ({ item }) => {
      await queryClient.invalidateQueries({ queryKey: collectionsQuery.queryKey });
      if (!field) {
        setValues(valuesOf(undefined));
        setSlugTouched(false);
      }
      onDone(item);
    },
  });
  const { at, elsewhere } = refusalOf(save.error);
  const set = (change: Partial<Values>) => setValues((current) => ({ ...current, ...change, ...(slugTouched || change.label === undefined ? {} : { slug: slugFrom(change.label) }) }));
  const offered = field ? [field.type, ...(types.data?.items.find((candidate) => candidate.type === field.type)?.changesTo ?? [])] : (types.data?.items.map((candidate) => candidate.type) ?? []);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    save.mutate();
  };

  const input = (key: 'label' | 'slug' | 'min' | 'max' | 'minLength' | 'maxLength' | 'pattern' | 'rows', issue: string, options: { hint?: string; required?: boolean; numeric?: boolean; onInput?: (value: string) => void } = {}) => (
    <TextSetting
      id={`${id}-${key}`}
      label={t(`schema.field.${key}` as const)}
      value={values[key]}
      onChange={options.onInput ?? ((value) => set({ [key]: value }))}
      hint={options.hint}
      issue={at(issue)}
      required={options.required}
      numeric={options.numeric}
    />
  );
  const check = (key: 'required' | 'unique' | 'searchable' | 'translatable') => (
    <label key={key}>
      <input type="checkbox" checked={values[key]} onChange={(event) => set({ [key]: event.target.checked })} /> {t(`schema.field.${key}` as const)}
    </label>
  );
  // A rule's refusal is named at `validation.min` and the like.
  const rule = (key: 'min' | 'max' | 'minLength' | 'maxLength' | 'pattern') => info?.validation.includes(key) && input(key, `validation.${key}`, { numeric: key !== 'pattern', hint: key === 'pattern' ? t('schema.field.pattern.hint') : undefined });

  return (
    <form className="stacked-form" onSubmit={submit}>
      {input('label', 'label', { required: true })}
      {!field &&
        input('slug', 'slug', {
          required: true,
          hint: t('schema.slug.hint'),
          onInput: (slug) => {
            setSlugTouched(true);
            setValues((current) => ({ ...current, slug }));
          },
        })}
      <div className="setting">
        <label htmlFor={`${id}-type`}>{t('schema.field.type')}</label>
        <select
          id={`${id}-type`}
          className="field-input"
          value={values.type}
          // A new field's default goes with its type; a field being changed is offered only types its values, and so its default, stay valid in.
          onChange={(event) => set({ type: event.target.value as FieldType, ...(field ? {} : { defaultValue: undefined }) })}
          aria-describedby={`${id}-type-hint ${id}-type-error`}
        >
          {offered.map((type) => (
            <option key={type} value={type}>
              {t(`schema.type.${type}` as const)}
            </option>
          ))}
        </select>
        <p id={`${id}-type-hint`} className="setting-hint">
          {field ? t('schema.field.type.changeHint') : t('schema.field.type.hint')}
        </p>
        <FieldIssue id={`${id}-type-error`} message={at('type')} />
      </div>
      <fieldset className="setting choice-list">
        <legend>{t('schema.field.rules')}</legend>
        {check('required')}
        {info?.unique && check('unique')}
        {info?.searchable && check('searchable')}
        {check('translatable')}
      </fieldset>
      {rule('min')}
      {rule('max')}
      {rule('minLength')}
      {rule('maxLength')}
      {rule('pattern')}
      {info?.validation.includes('options') && (
        <div className="setting">
          <label htmlFor={`${id}-choices`}>{t('schema.field.choices')}</label>
          <textarea
            id={`${id}-choices`}
            className="field-input"
            rows={4}
            value={values.choices}
            onChange={(event) => set({ choices: event.target.value })}
            aria-describedby={`${id}-choices-hint ${id}-choices-error`}
            aria-invalid={at('validation.options') ? true : undefined}
          />
          <p id={`${id}-choices-hint`} className="setting-hint">
            {t('schema.field.choices.hint')}
          </p>
          <FieldIssue id={`${id}-choices-error`} message={at('validation.options')} />
        </div>
      )}
      {info?.options.includes('collection') && (
        <div className="setting">
          <label htmlFor={`${id}-collection`}>{t('schema.field.collection')}</label>
          <select id={`${id}-collection`} className="field-input" value={values.collection} onChange={(event) => set({ collection: event.target.value })} aria-describedby={`${id}-collection-error`}>
            <option value="">{t('schema.field.collection.choose')}</option>
            {collections.data?.items.map((target) => (
              <option key={target.slug} value={target.slug}>
                {target.label}
              </option>
            ))}
          </select>
          <FieldIssue id={`${id}-collection-error`} message={at('options.collection')} />
        </div>
      )}
      {info?.options.includes('rows') && input('rows', 'options.rows', { numeric: true })}
      {offersDefault(values.type) && (
        <DefaultValue id={`${id}-defaultValue`} type={values.type} choices={choicesOf(values.choices)} value={values.defaultValue} issue={at('defaultValue')} onChange={(defaultValue) => set({ defaultValue })} />
      )}
      <FormEnd refusal={elsewhere} submitLabel={field ? t('schema.field.save') : t('schema.field.add')} pending={save.isPending} extra={extraButtons} />
    </form>
  );
}
