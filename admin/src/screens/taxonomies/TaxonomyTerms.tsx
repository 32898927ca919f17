import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { useEffect, useState, type FormEvent } from 'react';
import { Button } from 'react-aria-components';
import { api, dataOf, refusalOf, type Schemas } from '../../api/client';
import { collectionsQuery, meQuery, taxonomiesQuery } from '../../api/queries';
import { useT } from '../../i18n/i18n';
import { canShapeSite, isAdmin } from '../../roles';
import { ConfirmButton } from '../../shell/ConfirmButton';
import { DetailScreen, useLeaveDeleted } from '../../shell/DetailScreen';
import { EditDialog } from '../../shell/EditDialog';
import { FormEnd } from '../../shell/FormEnd';
import { TextSetting } from '../../shell/TextSetting';
import { TreeEditor, type Placement } from '../../tree/TreeEditor';
import { messageOf } from '../../shell/notice';
import { CollectionChoice } from './CollectionChoice';
import { termTreeQuery } from './queries';
import { TermForm, type TermNode } from './TermForm';
import './taxonomies.css';

type Taxonomy = Schemas['Taxonomy'];

/**
 * A taxonomy's terms (issue 33), for Editors and up: a tree (or, for a flat taxonomy such as tags, a
 * list) arranged by drag and drop or the toolbar, each term with how many entries have it, linked to
 * the content list filtered by it; terms added, changed and deleted. Admins also change the
 * taxonomy's label and collections, or delete it.
 */
export function TaxonomyTerms() {
  const t = useT();
  const { name } = useParams({ from: '/taxonomies/$name' });
  const queryClient = useQueryClient();
  const me = useQuery(meQuery);
  const taxonomies = useQuery(taxonomiesQuery);
  const tree = useQuery(termTreeQuery(name));
  const [editing, setEditing] = useState<TermNode>();
  const [notice, setNotice] = useState('');
  if (me.data && !canShapeSite(me.data.item.role)) return <p>{t('taxonomies.editorsOnly')}</p>;
  const taxonomy = taxonomies.data?.items.find((candidate) => candidate.name === name);
  const terms = tree.data?.items ?? [];
  // Where a term's entries are listed: the first collection the taxonomy applies to.
  const listedIn = taxonomy?.collections[0];

  const store = async (placed: Placement[], term: TermNode) => {
    try {
      // The answer is the tree as stored: shown from it, not read again; other reads of the terms are.
      const stored = await dataOf(api.POST('/_cms/api/taxonomies/{name}/terms/reorder', { params: { path: { name } }, body: { terms: placed } }));
      queryClient.setQueryData(termTreeQuery(name).queryKey, stored);
      void queryClient.invalidateQueries({ queryKey: ['terms', name], predicate: (query) => query.queryKey[2] !== 'tree' });
      setNotice(t('terms.moved', { term: term.label }));
    } catch (error) {
      setNotice(messageOf(error));
    }
  };
  const remove = async (term: TermNode) => {
    await dataOf(api.DELETE('/_cms/api/taxonomies/{name}/terms/{slug}', { params: { path: { name, slug: term.slug } }, body: {} }));
    await queryClient.invalidateQueries({ queryKey: ['terms', name] });
    setNotice(t('terms.deleted', { term: term.label }));
  };
  const count = (term: TermNode) => {
    const text = t('terms.count', { count: term.count });
    return listedIn && term.count > 0 ? (
      <Link to="/content/$collection" params={{ collection: listedIn }} search={{ term: `${name}:${term.slug}` }} aria-label={t('terms.countLabel', { count: term.count, term: term.label })}>
        {text}
      </Link>
    ) : (
      text
    );
  };

  return (
    <DetailScreen className="taxonomies" list="/taxonomies" back={t('taxonomies.back')} title={taxonomy ? t('terms.title', { taxonomy: taxonomy.label }) : t('taxonomies.title')} notice={notice} read={tree}>
      {taxonomy && tree.data && (
        <>
          <section aria-labelledby="terms-heading" className="screen-section">
            <h2 id="terms-heading">{t('terms.heading')}</h2>
            {terms.length === 0 ? (
              <p>{t('terms.none')}</p>
            ) : (
              <TreeEditor
                label={t('terms.of', { taxonomy: taxonomy.label })}
                nodes={terms}
                nested={taxonomy.hierarchical}
                labelOf={(term) => term.label}
                detail={count}
                onMove={store}
                actions={(chosen) => (
                  <>
                    <Button className="react-aria-Button" isDisabled={!chosen} onPress={() => setEditing(chosen)}>
                      {t('terms.edit')}
                    </Button>
                    {chosen && (
                      <ConfirmButton
                        label={t('terms.delete')}
                        title={t('terms.deleteTitle', { term: chosen.label })}
                        body={t('terms.deleteBody', { term: chosen.label, count: chosen.count, children: chosen.children.length })}
                        confirmLabel={t('terms.deleteConfirm')}
                        onConfirm={() => remove(chosen)}
                      />
                    )}
                  </>
                )}
              />
            )}
          </section>
          <section aria-labelledby="add-term-heading" className="screen-section">
            <h2 id="add-term-heading">{t('terms.new')}</h2>
            <TermForm id="new-term" taxonomy={name} hierarchical={taxonomy.hierarchical} tree={terms} onDone={(label) => setNotice(t('terms.added', { term: label }))} />
          </section>
          {me.data && isAdmin(me.data.item.role) && <TaxonomySettings taxonomy={taxonomy} onNotice={setNotice} />}
          <EditDialog editing={editing} onClose={() => setEditing(undefined)} title={(term) => t('terms.editTitle', { term: term.label })}>
            {(term, close, cancel) => (
              <TermForm
                id="edit-term"
                taxonomy={name}
                hierarchical={taxonomy.hierarchical}
                tree={terms}
                term={term}
                onDone={(label) => {
                  setNotice(t('terms.saved', { term: label }));
                  close();
                }}
                extraButtons={cancel}
              />
            )}
          </EditDialog>
        </>
      )}
    </DetailScreen>
  );
}

/** What admins change of the definition (its name and kind stay: they are how the site refers to it), and its deletion. */
function TaxonomySettings({ taxonomy, onNotice }: { taxonomy: Taxonomy; onNotice: (text: string) => void }) {
  const t = useT();
  const queryClient = useQueryClient();
  const collections = useQuery(collectionsQuery);
  const leave = useLeaveDeleted('/taxonomies', ['terms', taxonomy.name], taxonomiesQuery.queryKey);
  const [label, setLabel] = useState(taxonomy.label);
  const [chosen, setChosen] = useState(taxonomy.collections);
  useEffect(() => {
    setLabel(taxonomy.label);
    setChosen(taxonomy.collections);
  }, [taxonomy]);
  const save = useMutation({
    mutationFn: () => dataOf(api.PATCH('/_cms/api/taxonomies/{name}', { params: { path: { name: taxonomy.name } }, body: { label, collections: chosen } })),
    onSuccess: async ({ item }) => {
      await queryClient.invalidateQueries({ queryKey: taxonomiesQuery.queryKey });
      onNotice(t('taxonomies.saved', { taxonomy: item.label }));
    },
  });
  const { at, elsewhere } = refusalOf(save.error);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    save.mutate();
  };
  const remove = async () => {
    await dataOf(api.DELETE('/_cms/api/taxonomies/{name}', { params: { path: { name: taxonomy.name } }, body: {} }));
    await leave();
  };
  return (
    <section aria-labelledby="taxonomy-settings-heading" className="screen-section">
      <h2 id="taxonomy-settings-heading">{t('taxonomies.settings')}</h2>
      <form className="stacked-form" onSubmit={submit}>
        <TextSetting id="taxonomy-label" label={t('taxonomies.label')} value={label} onChange={setLabel} issue={at('label')} required />
        <CollectionChoice id="taxonomy-collections" collections={collections.data?.items ?? []} chosen={chosen} onChange={setChosen} issue={at('collections')} />
        <FormEnd refusal={elsewhere} submitLabel={t('taxonomies.save')} pending={save.isPending} />
      </form>
      <p>{t('taxonomies.deleteAbout')}</p>
      <ConfirmButton
        label={t('taxonomies.deleteButton', { taxonomy: taxonomy.label })}
        title={t('taxonomies.deleteTitle', { taxonomy: taxonomy.label })}
        body={t('taxonomies.deleteBody', { taxonomy: taxonomy.label })}
        confirmLabel={t('taxonomies.deleteConfirm')}
        onConfirm={remove}
      />
    </section>
  );
}
