import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import { useEffect, useState, type FormEvent } from 'react';
import { api, dataOf, refusalOf, type Schemas } from '../../api/client';
import { collectionsQuery, meQuery } from '../../api/queries';
import { useT } from '../../i18n/i18n';
import { isAdmin } from '../../roles';
import { ConfirmButton } from '../../shell/ConfirmButton';
import { DetailScreen, useLeaveDeleted } from '../../shell/DetailScreen';
import { FormEnd } from '../../shell/FormEnd';
import { CollectionFields, changedCollectionBody, type CollectionValues } from './CollectionFields';
import { FieldForm } from './FieldForm';
import { FieldList } from './FieldList';
import { schemaCollectionQuery } from './queries';
import './schema.css';

type Collection = Schemas['Collection'];

/**
 * One collection in the schema builder (issue 33), for admins: what it is (labels, description,
 * features, URL pattern), its fields (ordered, changed, deleted, added), and its deletion, each
 * deletion saying first what it destroys.
 */
export function CollectionSchema() {
  const t = useT();
  const { collection: slug } = useParams({ from: '/schema/$collection' });
  const me = useQuery(meQuery);
  const collection = useQuery(schemaCollectionQuery(slug));
  const [notice, setNotice] = useState('');
  if (me.data && !isAdmin(me.data.item.role)) return <p>{t('schema.adminsOnly')}</p>;
  const item = collection.data?.item;
  return (
    <DetailScreen className="schema" list="/schema" back={t('schema.back')} title={item ? t('schema.collectionTitle', { collection: item.label }) : t('schema.title')} notice={notice} read={collection}>
      {item && (
        <>
          <section aria-labelledby="schema-fields-heading" className="screen-section">
            <h2 id="schema-fields-heading">{t('schema.fields')}</h2>
            <FieldList collection={item.slug} label={item.label} fields={item.fields ?? []} onNotice={setNotice} />
          </section>
          <section aria-labelledby="schema-add-field-heading" className="screen-section">
            <h2 id="schema-add-field-heading">{t('schema.addField')}</h2>
            <FieldForm id="new-field" collection={item.slug} onDone={(field) => setNotice(t('schema.field.added', { field: field.label }))} />
          </section>
          <EditCollection collection={item} onNotice={setNotice} />
          <DeleteCollection collection={item} />
        </>
      )}
    </DetailScreen>
  );
}

const valuesOf = (collection: Collection): CollectionValues => ({
  slug: collection.slug,
  label: collection.label,
  labelSingular: collection.labelSingular ?? '',
  description: collection.description ?? '',
  supports: collection.supports,
  urlPattern: collection.urlPattern ?? '',
});

function EditCollection({ collection, onNotice }: { collection: Collection; onNotice: (text: string) => void }) {
  const t = useT();
  const queryClient = useQueryClient();
  const [values, setValues] = useState(() => valuesOf(collection));
  // Taken again when the collection is read again after someone else changed it (its updatedAt moves).
  useEffect(() => setValues(valuesOf(collection)), [collection.updatedAt]); // eslint-disable-line react-hooks/exhaustive-deps -- the stamp says when
  const save = useMutation({
    mutationFn: () => dataOf(api.PATCH('/_cms/api/schema/collections/{slug}', { params: { path: { slug: collection.slug } }, body: changedCollectionBody(values) })),
    onSuccess: async ({ item }) => {
      await queryClient.invalidateQueries({ queryKey: collectionsQuery.queryKey });
      onNotice(t('schema.collection.saved', { collection: item.label }));
    },
  });
  const { at, elsewhere } = refusalOf(save.error);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <section aria-labelledby="schema-collection-heading" className="screen-section">
      <h2 id="schema-collection-heading">{t('schema.collection.settings')}</h2>
      <form className="stacked-form" onSubmit={submit}>
        <CollectionFields id="edit-collection" values={values} onChange={setValues} issueAt={at} />
        <FormEnd refusal={elsewhere} submitLabel={t('schema.collection.save')} pending={save.isPending} />
      </form>
    </section>
  );
}

function DeleteCollection({ collection }: { collection: Collection }) {
  const t = useT();
  const leave = useLeaveDeleted('/schema', schemaCollectionQuery(collection.slug).queryKey, collectionsQuery.queryKey);
  const remove = async () => {
    await dataOf(api.DELETE('/_cms/api/schema/collections/{slug}', { params: { path: { slug: collection.slug }, query: { force: 'true' } }, body: {} }));
    await leave();
  };
  return (
    <section aria-labelledby="schema-delete-heading" className="screen-section">
      <h2 id="schema-delete-heading">{t('schema.collection.delete')}</h2>
      <p>{t('schema.collection.deleteAbout')}</p>
      <ConfirmButton
        label={t('schema.collection.deleteButton', { collection: collection.label })}
        title={t('schema.collection.deleteTitle', { collection: collection.label })}
        body={t('schema.collection.deleteBody', { collection: collection.slug, entries: collection.entries ?? 0 })}
        confirmLabel={t('schema.collection.deleteConfirm')}
        onConfirm={remove}
      />
    </section>
  );
}
