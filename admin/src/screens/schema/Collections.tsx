import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { api, dataOf, refusalOf } from '../../api/client';
import { collectionsQuery, meQuery } from '../../api/queries';
import { useT } from '../../i18n/i18n';
import { isAdmin } from '../../roles';
import { FormEnd } from '../../shell/FormEnd';
import { NamedTable } from '../../shell/NamedTable';
import { CollectionFields, newCollectionBody, type CollectionValues } from './CollectionFields';
import { slugFrom } from '../../slugs';
import { TypeScriptExport } from './TypeScriptExport';
import './schema.css';

/**
 * The schema builder's first screen (issue 33), for admins: the site's collections with their fields
 * and features, a form for a new one (which then opens to take its fields), and the schema's
 * TypeScript types to copy or download.
 */
export function Collections() {
  const t = useT();
  const me = useQuery(meQuery);
  const collections = useQuery(collectionsQuery);
  if (me.data && !isAdmin(me.data.item.role)) return <p>{t('schema.adminsOnly')}</p>;
  const items = collections.data?.items ?? [];
  return (
    <div className="schema">
      <h1>{t('schema.title')}</h1>
      <section aria-labelledby="schema-collections-heading" className="screen-section">
        <h2 id="schema-collections-heading">{t('schema.collections')}</h2>
        <NamedTable
          label={t('schema.collections')}
          columns={[t('schema.column.collection'), t('schema.column.slug'), t('schema.column.fields'), t('schema.column.supports')]}
          read={collections}
          items={items}
          none={t('schema.noCollections')}
          row={(collection) => ({
            link: (
              <Link to="/schema/$collection" params={{ collection: collection.slug }}>
                {collection.label}
              </Link>
            ),
            name: collection.slug,
            facts: [collection.fields.length, collection.supports.map((feature) => t(`schema.feature.${feature}` as const)).join(', ')],
          })}
        />
      </section>
      <NewCollection />
      {items.length > 0 && <TypeScriptExport />}
    </div>
  );
}

const blank: CollectionValues = { slug: '', label: '', labelSingular: '', description: '', supports: ['drafts', 'revisions'], urlPattern: '' };

function NewCollection() {
  const t = useT();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [values, setValues] = useState(blank);
  // The slug follows the label until the person writes one of their own.
  const [slugTouched, setSlugTouched] = useState(false);
  const create = useMutation({
    mutationFn: () => dataOf(api.POST('/_cms/api/schema/collections', { body: newCollectionBody(values) })),
    onSuccess: async ({ item }) => {
      await queryClient.invalidateQueries({ queryKey: collectionsQuery.queryKey });
      await navigate({ to: '/schema/$collection', params: { collection: item.slug } });
    },
  });
  const { at, elsewhere } = refusalOf(create.error);
  const change = (next: CollectionValues) => setValues(slugTouched ? next : { ...next, slug: slugFrom(next.label) });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    create.mutate();
  };
  return (
    <section aria-labelledby="new-collection-heading" className="screen-section">
      <h2 id="new-collection-heading">{t('schema.newCollection')}</h2>
      <form className="stacked-form" onSubmit={submit}>
        <CollectionFields
          id="new-collection"
          values={values}
          onChange={change}
          issueAt={at}
          slug={{
            onSlugChange: (slug) => {
              setSlugTouched(true);
              setValues({ ...values, slug });
            },
          }}
        />
        <FormEnd refusal={elsewhere} submitLabel={t('schema.createCollection')} pending={create.isPending} />
      </form>
    </section>
  );
}
