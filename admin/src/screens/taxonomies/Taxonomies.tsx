import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { api, dataOf, refusalOf } from '../../api/client';
import { collectionsQuery, meQuery, taxonomiesQuery } from '../../api/queries';
import { useT } from '../../i18n/i18n';
import { canShapeSite, isAdmin } from '../../roles';
import { FormEnd } from '../../shell/FormEnd';
import { NamedTable } from '../../shell/NamedTable';
import { TextSetting } from '../../shell/TextSetting';
import { slugFrom } from '../../slugs';
import { CollectionChoice } from './CollectionChoice';
import './taxonomies.css';

/**
 * The site's taxonomies (issue 33): for Editors and up, each opens on its terms; admins define new
 * ones (a definition is part of the schema, `schema:write`).
 */
export function Taxonomies() {
  const t = useT();
  const me = useQuery(meQuery);
  const taxonomies = useQuery(taxonomiesQuery);
  if (me.data && !canShapeSite(me.data.item.role)) return <p>{t('taxonomies.editorsOnly')}</p>;
  const items = taxonomies.data?.items ?? [];
  return (
    <div className="taxonomies">
      <h1>{t('taxonomies.title')}</h1>
      <NamedTable
        label={t('taxonomies.title')}
        columns={[t('taxonomies.column.taxonomy'), t('taxonomies.column.name'), t('taxonomies.column.kind'), t('taxonomies.column.collections')]}
        read={taxonomies}
        items={items}
        none={t('taxonomies.none')}
        row={(taxonomy) => ({
          link: (
            <Link to="/taxonomies/$name" params={{ name: taxonomy.name }}>
              {taxonomy.label}
            </Link>
          ),
          name: taxonomy.name,
          facts: [taxonomy.hierarchical ? t('taxonomies.hierarchical') : t('taxonomies.flat'), taxonomy.collections.join(', ')],
        })}
      />
      {me.data && isAdmin(me.data.item.role) && <NewTaxonomy />}
    </div>
  );
}

function NewTaxonomy() {
  const t = useT();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const collections = useQuery(collectionsQuery);
  const [label, setLabel] = useState('');
  const [name, setName] = useState<string>();
  const [hierarchical, setHierarchical] = useState(false);
  const [chosen, setChosen] = useState<string[]>([]);
  const create = useMutation({
    mutationFn: () => dataOf(api.POST('/_cms/api/taxonomies', { body: { label, name: name ?? slugFrom(label), hierarchical, collections: chosen } })),
    onSuccess: async ({ item }) => {
      await queryClient.invalidateQueries({ queryKey: taxonomiesQuery.queryKey });
      await navigate({ to: '/taxonomies/$name', params: { name: item.name } });
    },
  });
  const { at, elsewhere } = refusalOf(create.error);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <section aria-labelledby="new-taxonomy-heading" className="screen-section">
      <h2 id="new-taxonomy-heading">{t('taxonomies.new')}</h2>
      <form className="stacked-form" onSubmit={submit}>
        <TextSetting id="new-taxonomy-label" label={t('taxonomies.label')} value={label} onChange={setLabel} hint={t('taxonomies.label.hint')} issue={at('label')} required />
        <TextSetting id="new-taxonomy-name" label={t('taxonomies.name')} value={name ?? slugFrom(label)} onChange={setName} hint={t('taxonomies.name.hint')} issue={at('name')} required />
        <label className="check-label">
          <input type="checkbox" checked={hierarchical} onChange={(event) => setHierarchical(event.target.checked)} /> {t('taxonomies.hierarchical.choice')}
        </label>
        <CollectionChoice id="new-taxonomy-collections" collections={collections.data?.items ?? []} chosen={chosen} onChange={setChosen} issue={at('collections')} />
        <FormEnd refusal={elsewhere} submitLabel={t('taxonomies.create')} pending={create.isPending} />
      </form>
    </section>
  );
}
