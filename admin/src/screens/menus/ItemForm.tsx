import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { api, dataOf, refusalOf } from '../../api/client';
import { collectionsQuery, taxonomiesQuery, termsQuery } from '../../api/queries';
import { labelIdOf } from '../../fields/input';
import { standaloneField } from '../../fields/standalone';
import { ReferenceInput } from '../../fields/widgets/ReferenceInput';
import { useT } from '../../i18n/i18n';
import { FieldIssue } from '../../shell/FieldIssue';
import { FormEnd } from '../../shell/FormEnd';
import { TextSetting } from '../../shell/TextSetting';
import type { MenuNode } from './MenuEditor';

type Kind = 'custom' | 'entry' | 'term';

interface Values {
  kind: Kind;
  label: string;
  url: string;
  /** Entries: the collection; terms: the taxonomy. */
  source: string;
  target: string;
  newTab: boolean;
}

function valuesOf(item: MenuNode | undefined): Values {
  if (!item) return { kind: 'custom', label: '', url: '', source: '', target: '', newTab: false };
  const kind: Kind = item.type === 'custom' ? 'custom' : item.type === 'taxonomy' ? 'term' : 'entry';
  return { kind, label: item.label, url: item.url ?? '', source: item.referenceCollection ?? '', target: item.referenceId ?? '', newTab: item.target === '_blank' };
}

/** The item's link as the API takes it: an address, an entry of a collection, or a term of a taxonomy. */
function linkOf(values: Values) {
  if (values.kind === 'custom') return { type: 'custom', url: values.url, referenceCollection: null, referenceId: null };
  const reference = { referenceCollection: values.source || null, referenceId: values.target || null, url: null };
  return values.kind === 'term' ? { type: 'taxonomy', ...reference } : { type: values.source || 'custom', ...reference };
}

interface Props {
  menu: string;
  /** The item to change; absent, the form adds one at the end of the menu. */
  item?: MenuNode;
  id: string;
  onDone: (label: string) => void;
  extraButtons?: ReactNode;
}

/**
 * A menu item's form: a link to any address, to an entry (found by its title in its collection, as the
 * editor's reference fields find them) or to a term; its label (for entries and terms, the target's
 * title when left empty) and whether it opens in a new tab.
 */
export function ItemForm({ menu, item, id, onDone, extraButtons }: Props) {
  const t = useT();
  const queryClient = useQueryClient();
  const collections = useQuery(collectionsQuery);
  const taxonomies = useQuery(taxonomiesQuery);
  const [values, setValues] = useState(() => valuesOf(item));
  const terms = useQuery({ ...termsQuery(values.source), enabled: values.kind === 'term' && values.source !== '' });
  const set = (change: Partial<Values>) => setValues((current) => ({ ...current, ...change }));
  const save = useMutation({
    mutationFn: () => {
      const body = { ...linkOf(values), target: values.newTab ? ('_blank' as const) : null, ...(values.label.trim() === '' ? {} : { label: values.label }) };
      return item
        ? dataOf(api.PUT('/_cms/api/menus/{name}/items/{id}', { params: { path: { name: menu, id: item.id } }, body }))
        : dataOf(api.POST('/_cms/api/menus/{name}/items', { params: { path: { name: menu } }, body }));
    },
    onSuccess: async ({ item: saved }) => {
      await queryClient.invalidateQueries({ queryKey: ['menus', menu] });
      if (!item) setValues(valuesOf(undefined));
      onDone(saved.label);
    },
  });
  const { at, elsewhere } = refusalOf(save.error);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    save.mutate();
  };
  const select = (key: 'source' | 'target', label: string, options: { value: string; label: string }[], issue: string | undefined, choose: string) => (
    <div className="setting">
      <label htmlFor={`${id}-${key}`}>{label}</label>
      <select id={`${id}-${key}`} className="field-input" value={values[key]} onChange={(event) => set(key === 'source' ? { source: event.target.value, target: '' } : { target: event.target.value })} aria-describedby={`${id}-${key}-error`}>
        <option value="">{choose}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <FieldIssue id={`${id}-${key}-error`} message={issue} />
    </div>
  );
  return (
    <form className="stacked-form" onSubmit={submit}>
      <fieldset className="setting choice-list">
        <legend>{t('menus.item.kind')}</legend>
        {(['custom', 'entry', 'term'] as const).map((kind) => (
          <label key={kind}>
            <input type="radio" name={`${id}-kind`} checked={values.kind === kind} onChange={() => set({ kind, source: '', target: '' })} /> {t(`menus.item.kind.${kind}` as const)}
          </label>
        ))}
      </fieldset>
      {values.kind === 'custom' && <TextSetting id={`${id}-url`} label={t('menus.item.url')} value={values.url} onChange={(url) => set({ url })} hint={t('menus.item.url.hint')} issue={at('url')} required />}
      {values.kind === 'entry' && (
        <>
          {select('source', t('menus.item.collection'), (collections.data?.items ?? []).map((collection) => ({ value: collection.slug, label: collection.label })), at('type') ?? at('referenceCollection'), t('menus.item.choose'))}
          {values.source !== '' && (
            <div className="setting">
              <label id={labelIdOf(`${id}-entry`)} htmlFor={`${id}-entry`}>
                {t('menus.item.entry')}
              </label>
              <ReferenceInput field={standaloneField('reference', 'entry', t('menus.item.entry'), { collection: values.source })} id={`${id}-entry`} errorId={`${id}-entry-error`} error={at('referenceId')} value={values.target || undefined} onChange={(target) => set({ target: target ?? '' })} />
              <FieldIssue id={`${id}-entry-error`} message={at('referenceId')} />
            </div>
          )}
        </>
      )}
      {values.kind === 'term' && (
        <>
          {select('source', t('menus.item.taxonomy'), (taxonomies.data?.items ?? []).map((taxonomy) => ({ value: taxonomy.name, label: taxonomy.label })), at('referenceCollection'), t('menus.item.choose'))}
          {values.source !== '' && select('target', t('menus.item.term'), (terms.data ?? []).map((term) => ({ value: term.id, label: term.label })), at('referenceId'), t('menus.item.choose'))}
        </>
      )}
      <TextSetting id={`${id}-label`} label={t('menus.item.label')} value={values.label} onChange={(label) => set({ label })} hint={values.kind === 'custom' ? undefined : t('menus.item.label.hint')} issue={at('label')} required={values.kind === 'custom'} />
      <label className="check-label">
        <input type="checkbox" checked={values.newTab} onChange={(event) => set({ newTab: event.target.checked })} /> {t('menus.item.newTab')}
      </label>
      <FormEnd refusal={elsewhere} submitLabel={item ? t('menus.item.save') : t('menus.item.add')} pending={save.isPending} extra={extraButtons} />
    </form>
  );
}
