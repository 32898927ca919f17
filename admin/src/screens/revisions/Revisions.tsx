import { useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useState } from 'react';
import { api, dataOf, type ContentCollection, type Schemas } from '../../api/client';
import { collectionsQuery, revisionListQuery } from '../../api/queries';
import { titleFieldOf } from '../../entries';
import { useDateFormat, useT } from '../../i18n/i18n';
import { ConfirmButton } from '../../shell/ConfirmButton';
import { NotFoundScreen } from '../../shell/Problems';
import { FieldComparison } from './FieldComparison';
import './Revisions.css';

// Typed by the route's declaration in router.tsx, without importing the router back into this chunk.
const revisionsRoute = getRouteApi('/content/$collection/$id/revisions');

type Revision = Schemas['Revision'];

/** A revision as the screen shows it: its number counts from the oldest, 1. */
export interface NumberedRevision extends Revision {
  number: number;
}

/** An entry's revisions: who saved each and when, a comparison of any two, and restore. */
export function Revisions() {
  const t = useT();
  const { collection: slug, id } = revisionsRoute.useParams();
  const collections = useQuery(collectionsQuery);
  const revisions = useQuery(revisionListQuery(slug, id));
  if (collections.isPending || revisions.isPending) return <p>{t('loading')}</p>;
  const collection = collections.data?.items.find((candidate) => candidate.slug === slug);
  if (!collection) return <NotFoundScreen message={t('notFound.collection', { slug })} />;
  // The API's own words: the entry does not exist, or its collection keeps no revisions.
  if (revisions.isError) return <NotFoundScreen message={revisions.error.message} />;
  const { items, total } = revisions.data;
  return <History collection={collection} entryId={id} revisions={items.map((revision, index) => ({ ...revision, number: total - index }))} total={total} />;
}

function History({ collection, entryId, revisions, total }: { collection: ContentCollection; entryId: string; revisions: NumberedRevision[]; total: number }) {
  const t = useT();
  const formatDate = useDateFormat();
  const search = revisionsRoute.useSearch();
  const navigate = revisionsRoute.useNavigate();
  const [restored, setRestored] = useState<number | undefined>();
  const newest = revisions[0];
  if (!newest) return <NotFoundScreen message={t('revisions.none')} />;
  const later = revisions.find((revision) => revision.id === search.to) ?? newest;
  const earlier = revisions.find((revision) => revision.id === search.from) ?? revisions[1] ?? newest;
  const titleField = titleFieldOf(collection);
  const titleValue = titleField === undefined ? undefined : newest.data[titleField];
  const title = typeof titleValue === 'string' && titleValue.trim() !== '' ? titleValue : newest.slug;
  const authorOf = (revision: Revision) => revision.authorName ?? t('revisions.unknownAuthor');
  const choose = (change: { from?: string; to?: string }) => void navigate({ search: (previous) => ({ ...previous, ...change }), replace: true });

  const choice = (label: string, selected: NumberedRevision, key: 'from' | 'to') => (
    <label className="revision-choice">
      <span>{label}</span>
      <select value={selected.id} onChange={(event) => choose({ [key]: event.target.value })}>
        {revisions.map((revision) => (
          <option key={revision.id} value={revision.id}>
            {t('revisions.option', { number: revision.number, when: formatDate(revision.createdAt), name: authorOf(revision) })}
          </option>
        ))}
      </select>
    </label>
  );

  return (
    <>
      <h1>{t('revisions.title', { title })}</h1>
      <p>
        <Link to="/content/$collection" params={{ collection: collection.slug }}>
          {t('revisions.back', { collection: collection.label })}
        </Link>
      </p>
      <p role="status" className="revisions-status">
        {restored === undefined ? '' : t('revisions.restored', { number: restored })}
      </p>
      <div className="revisions-layout">
        <section aria-labelledby="revisions-history" className="revisions-history">
          <h2 id="revisions-history">{t('revisions.history')}</h2>
          <p className="revisions-note">{revisions.length < total ? t('revisions.newestOf', { shown: revisions.length, total }) : t('revisions.count', { total })}</p>
          <ol className="revision-list">
            {revisions.map((revision) => (
              <li key={revision.id} className="revision-item">
                <span className="revision-number">{t('revisions.number', { number: revision.number })}</span>
                <time dateTime={revision.createdAt}>{formatDate(revision.createdAt)}</time>
                <span className="revision-author">{t('revisions.by', { name: authorOf(revision) })}</span>
                {revision !== newest && (
                  <RestoreButton
                    revision={revision}
                    collection={collection.slug}
                    entryId={entryId}
                    onRestored={() => {
                      setRestored(revision.number);
                      choose({ from: undefined, to: undefined });
                    }}
                  />
                )}
              </li>
            ))}
          </ol>
        </section>
        <section aria-labelledby="revisions-compare" className="revisions-compare">
          <h2 id="revisions-compare">{t('revisions.compare')}</h2>
          <div className="revision-choices">
            {choice(t('revisions.from'), earlier, 'from')}
            {choice(t('revisions.to'), later, 'to')}
          </div>
          {earlier.id === later.id ? <p>{t('revisions.same')}</p> : <FieldComparison collection={collection} before={earlier} after={later} />}
        </section>
      </div>
    </>
  );
}

/** Restore asks first: the current draft's values give way (they stay in the history, as a revision). */
function RestoreButton({ revision, collection, entryId, onRestored }: { revision: NumberedRevision; collection: string; entryId: string; onRestored: () => void }) {
  const t = useT();
  const queryClient = useQueryClient();
  return (
    <ConfirmButton
      label={t('revisions.restore')}
      ariaLabel={t('revisions.restoreLabel', { number: revision.number })}
      triggerClassName="react-aria-Button revision-restore"
      title={t('revisions.confirmTitle', { number: revision.number })}
      body={t('revisions.confirmBody')}
      confirmLabel={t('revisions.restoreLabel', { number: revision.number })}
      pendingLabel={t('revisions.restoring')}
      tone="primary"
      onConfirm={async () => {
        await dataOf(api.POST('/_cms/api/revisions/{revisionId}/restore', { params: { path: { revisionId: revision.id } }, body: {} }));
        // The history, the editor's copy of the entry and the lists it appears in.
        await Promise.all(['revisions', 'entry', 'entries'].map((kind) => queryClient.invalidateQueries({ queryKey: kind === 'entries' ? [kind, collection] : [kind, collection, entryId] })));
        onRestored();
      }}
    />
  );
}
