import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from 'react-aria-components';
import { api, linesOf, type Schemas } from '../../api/client';
import { collectionsQuery, meQuery } from '../../api/queries';
import { useNumberFormat, useT } from '../../i18n/i18n';
import { isAdmin } from '../../roles';
import { messageOf, type Notice } from '../../shell/notice';
import { searchStatsQuery } from './queries';
import './search-index.css';

type Progress = Schemas['SearchRebuildProgress'];
type Line = Progress | Schemas['SearchRebuildResult'];

/** A rebuild under way: of one collection or of all, and each collection's last progress line. */
interface Rebuild {
  only: string | undefined;
  progress: ReadonlyMap<string, Progress>;
}

/**
 * The search index (issue 33), for admins: what it holds per collection with search, and a rebuild,
 * of one collection or of all, followed batch by batch as the server streams it. The index follows
 * every save by itself; a rebuild repairs it after rows were written behind Folio's back (a restore,
 * a script on the database).
 */
export function SearchIndex() {
  const t = useT();
  const number = useNumberFormat();
  const queryClient = useQueryClient();
  const me = useQuery(meQuery);
  const stats = useQuery(searchStatsQuery);
  const collections = useQuery(collectionsQuery);
  const [rebuild, setRebuild] = useState<Rebuild>();
  const [notice, setNotice] = useState<Notice>();
  if (me.data && !isAdmin(me.data.item.role)) return <p>{t('searchIndex.adminsOnly')}</p>;
  const labelOf = (slug: string) => collections.data?.items.find((collection) => collection.slug === slug)?.label ?? slug;

  const start = async (only?: string) => {
    setNotice(undefined);
    const progress = new Map<string, Progress>();
    setRebuild({ only, progress });
    try {
      const lines = linesOf<Line>(api.POST('/_cms/api/search/rebuild', { body: { ...(only === undefined ? {} : { collections: [only] }), stream: true }, parseAs: 'stream' }));
      for await (const line of lines) {
        if (line.type === 'progress') {
          progress.set(line.collection, line);
          setRebuild({ only, progress: new Map(progress) });
        } else {
          const entries = line.items.reduce((sum, item) => sum + item.entries, 0);
          setNotice({ kind: 'done', text: t('searchIndex.rebuilt', { entries, collections: line.items.length }) });
        }
      }
    } catch (error) {
      setNotice({ kind: 'failed', text: messageOf(error) });
    } finally {
      setRebuild(undefined);
      await queryClient.invalidateQueries({ queryKey: searchStatsQuery.queryKey });
    }
  };

  const items = stats.data?.items ?? [];
  return (
    <div className="search-index">
      <h1>{t('searchIndex.title')}</h1>
      <p>{t('searchIndex.about')}</p>
      <p role="status" className="screen-notice">
        {notice?.kind === 'done' ? notice.text : ''}
      </p>
      {notice?.kind === 'failed' && <p role="alert">{notice.text}</p>}
      {stats.isError && <p role="alert">{messageOf(stats.error)}</p>}
      {stats.isPending && <p>{t('loading')}</p>}
      {stats.data && items.length === 0 && <p>{t('searchIndex.none')}</p>}
      {items.length > 0 && (
        <>
          <Button className="react-aria-Button primary" isDisabled={rebuild !== undefined} onPress={() => void start()}>
            {t('searchIndex.rebuildAll')}
          </Button>
          <table className="data-table" aria-label={t('searchIndex.list')}>
            <thead>
              <tr>
                <th scope="col">{t('searchIndex.column.collection')}</th>
                <th scope="col">{t('searchIndex.column.entries')}</th>
                <th scope="col">{t('searchIndex.column.documents')}</th>
                <th scope="col">{t('searchIndex.column.rebuild')}</th>
              </tr>
            </thead>
            <tbody>
              {items.map((item) => {
                const label = labelOf(item.collection);
                const progress = rebuild?.progress.get(item.collection);
                const included = rebuild !== undefined && (rebuild.only === undefined || rebuild.only === item.collection);
                return (
                  <tr key={item.collection}>
                    <th scope="row">{label}</th>
                    <td>{number(item.entries)}</td>
                    <td>{number(item.documents)}</td>
                    <td>
                      {included ? (
                        <span className="search-index-progress">
                          <progress max={progress?.total ?? 1} value={progress?.entries ?? 0} aria-label={t('searchIndex.progress', { collection: label })} />
                          {progress ? t('searchIndex.progressText', { entries: progress.entries, total: progress.total }) : t('searchIndex.waiting')}
                        </span>
                      ) : (
                        <Button className="react-aria-Button" isDisabled={rebuild !== undefined} aria-label={t('searchIndex.rebuildOneLabel', { collection: label })} onPress={() => void start(item.collection)}>
                          {t('searchIndex.rebuildOne')}
                        </Button>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </>
      )}
    </div>
  );
}
