import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, dataOf, type ContentCollection, type Entry, type Schemas } from '../../../api/client';
import { useT } from '../../../i18n/i18n';
import { AddPicker, ChosenList } from './Picker';
import './sidebar.css';
import { taxonomiesQuery, termsQuery } from '../../../api/queries';
import { entryTermsQuery } from './queries';

type Taxonomy = Schemas['Taxonomy'];

/** The taxonomies that apply to a collection: the sidebar shows the terms panel only when there is one. */
export function useCollectionTaxonomies(collection: ContentCollection): Taxonomy[] {
  const taxonomies = useQuery(taxonomiesQuery);
  return (taxonomies.data?.items ?? []).filter((taxonomy) => taxonomy.collections.includes(collection.slug));
}

/**
 * The entry's terms in each taxonomy of its collection, chosen with a searchable combobox; each
 * change replaces the entry's terms of that taxonomy at once (POST .../terms/:taxonomy), apart from
 * the entry's autosave.
 */
export function TermsPanel({ collection, entry }: { collection: ContentCollection; entry: Entry }) {
  const t = useT();
  const taxonomies = useCollectionTaxonomies(collection);
  if (taxonomies.length === 0) return null;
  return (
    <section className="side-panel" aria-labelledby="terms-heading">
      <h2 id="terms-heading">{t('sidebar.terms')}</h2>
      {taxonomies.map((taxonomy) => (
        <TaxonomyTerms key={taxonomy.name} collection={collection} entry={entry} taxonomy={taxonomy} />
      ))}
    </section>
  );
}

function TaxonomyTerms({ collection, entry, taxonomy }: { collection: ContentCollection; entry: Entry; taxonomy: Taxonomy }) {
  const t = useT();
  const queryClient = useQueryClient();
  const allTerms = useQuery(termsQuery(taxonomy.name));
  const ownQuery = entryTermsQuery(collection.slug, entry.id, taxonomy.name);
  const own = useQuery(ownQuery);
  const save = useMutation({
    mutationFn: (termIds: string[]) =>
      dataOf(api.POST('/_cms/api/content/{collection}/{id}/terms/{taxonomy}', { params: { path: { collection: collection.slug, id: entry.id, taxonomy: taxonomy.name } }, body: { termIds } })),
    onSuccess: (saved) => {
      queryClient.setQueryData(ownQuery.queryKey, saved);
      // Each term's count changed.
      void queryClient.invalidateQueries({ queryKey: ['terms', taxonomy.name] });
    },
  });
  const chosenIds = (own.data?.items ?? []).map((term) => term.id);
  const chosen = (own.data?.items ?? []).map((term) => ({ id: term.id, label: term.label }));
  const options = (allTerms.data ?? []).filter((term) => !chosenIds.includes(term.id)).map((term) => ({ id: term.id, label: term.label }));
  const busy = save.isPending || own.isPending;
  return (
    <div className="sidebar-group">
      <h3>{taxonomy.label}</h3>
      {own.isError && <p role="alert">{own.error.message}</p>}
      <ChosenList chosen={chosen} label={taxonomy.label} isDisabled={busy} onRemove={(id) => save.mutate(chosenIds.filter((chosenId) => chosenId !== id))} />
      <AddPicker label={t('sidebar.addTerm', { taxonomy: taxonomy.labelSingular ?? taxonomy.label })} options={options} isDisabled={busy} onPick={(id) => save.mutate([...chosenIds, id])} />
      {save.isError && <p role="alert">{save.error.message}</p>}
    </div>
  );
}
