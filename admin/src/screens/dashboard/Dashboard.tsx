import { useQueries, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { ContentCollection } from '../../api/client';
import { collectionCountsQuery, collectionsQuery, entryPageQuery, meQuery, type ListParams } from '../../api/queries';
import { entryTitle } from '../../entries';
import { useDateFormat, useNumberFormat, useT } from '../../i18n/i18n';
import type { MessageId } from '../../i18n/en';
import { listFilters } from '../content-list/search';

const shown = 8;

/**
 * The first screen: how much each collection holds, and the entries someone is likely to come back
 * to. Each list asks every collection for its few first entries (a small page each, from the indexes
 * the lists use) and keeps the first of all.
 */
export function Dashboard() {
  const t = useT();
  const number = useNumberFormat();
  const me = useQuery(meQuery);
  const counts = useQuery(collectionCountsQuery);
  const collections = useQuery(collectionsQuery).data?.items ?? [];
  const userId = me.data?.item.id;
  return (
    <>
      <h1>{t('dashboard.title')}</h1>
      <section aria-labelledby="counts-heading">
        <h2 id="counts-heading">{t('dashboard.counts')}</h2>
        {counts.data && (
          <table className="counts">
            <thead>
              <tr>
                <th scope="col">{t('dashboard.collection')}</th>
                {listFilters.map((status) => (
                  <th scope="col" key={status}>
                    {t(`status.${status}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {counts.data.items.map((collection) => (
                <tr key={collection.slug}>
                  <th scope="row">
                    <Link to="/content/$collection" params={{ collection: collection.slug }}>
                      {collection.label}
                    </Link>
                  </th>
                  {listFilters.map((status) => (
                    <td key={status}>
                      {/* The cell's row and column headers name the number for a screen reader. */}
                      <Link to="/content/$collection" params={{ collection: collection.slug }} search={{ status }}>
                        {number(collection.counts?.[status] ?? 0)}
                      </Link>
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <div className="panels">
        <EntryPanel title="dashboard.recent" empty="dashboard.noRecent" line="dashboard.editedAt" collections={collections} params={{ orderBy: 'updatedAt', order: 'desc' }} />
        {userId !== undefined && (
          <EntryPanel title="dashboard.myDrafts" empty="dashboard.noDrafts" line="dashboard.editedAt" collections={collections} params={{ status: 'draft', author: userId, orderBy: 'updatedAt', order: 'desc' }} />
        )}
        <EntryPanel title="dashboard.scheduled" empty="dashboard.noScheduled" line="dashboard.scheduledFor" collections={collections} params={{ status: 'scheduled', orderBy: 'scheduledAt', order: 'asc' }} />
      </div>
    </>
  );
}

interface EntryPanelProps {
  title: MessageId;
  empty: MessageId;
  collections: ContentCollection[];
  /** The time shown under each entry's title, with `{when}` the time the list is ordered by. */
  line: MessageId;
  params: ListParams & { orderBy: 'updatedAt' | 'scheduledAt' };
}

/** The first entries of all collections in one order: each collection's first page, merged. */
function EntryPanel({ title, empty, line, collections, params }: EntryPanelProps) {
  const t = useT();
  const formatDate = useDateFormat();
  const pages = useQueries({ queries: collections.map((collection) => entryPageQuery(collection.slug, { ...params, limit: shown })) });
  const key = params.orderBy;
  const direction = params.order === 'asc' ? 1 : -1;
  const entries = pages
    .flatMap((page, index) => (page.data?.items ?? []).map((entry) => ({ entry, collection: collections[index]! })))
    .sort((a, b) => direction * (a.entry[key] ?? '').localeCompare(b.entry[key] ?? ''))
    .slice(0, shown);
  const headingId = `panel-${title.replace('.', '-')}`;
  return (
    <section className="panel" aria-labelledby={headingId}>
      <h2 id={headingId}>{t(title)}</h2>
      {pages.some((page) => page.isPending) ? (
        <p>{t('loading')}</p>
      ) : entries.length === 0 ? (
        <p>{t(empty)}</p>
      ) : (
        <ul className="entry-list">
          {entries.map(({ entry, collection }) => (
            <li key={entry.id}>
              <Link className="entry-title" to="/content/$collection/$id" params={{ collection: collection.slug, id: entry.id }}>
                {entryTitle(collection, entry)}
              </Link>
              <span className="entry-meta">
                {collection.labelSingular ?? collection.label} · {t(`status.${entry.status}`)} · {t(line, { when: formatDate(entry[key] ?? entry.updatedAt) })}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
