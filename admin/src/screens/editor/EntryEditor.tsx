import { useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { Button } from 'react-aria-components';
import { api, ApiError, dataOf, type ContentCollection } from '../../api/client';
import { collectionsQuery, entryQuery, meQuery } from '../../api/queries';
import { entryTitle, newEntryId } from '../../entries';
import { useT } from '../../i18n/i18n';
import { NotFoundScreen } from '../../shell/Problems';
import { ConflictDialog } from './ConflictDialog';
import { EntryForm } from './EntryForm';
import { EntrySidebar } from './EntrySidebar';
import { SaveStatus } from './SaveStatus';
import { SignInDialog } from './SignInDialog';
import type { EntrySession } from './session';
import { refile, release, sessionFor } from './sessions';
import './editor.css';

const entryRoute = getRouteApi('/content/$collection/$id');

/**
 * The editor of an entry, `/content/:collection/:id`, or of a new one at id `new`: that address
 * becomes the entry's once saved, and the editor stays the same one (decisions/0050).
 */
export function EntryEditor() {
  const { collection, id } = entryRoute.useParams();
  return <EditorLoader slug={collection} id={id === newEntryId ? undefined : id} />;
}

/** One editor per session: a new entry's session, filed under its id once created, keeps its editor mounted. */
const editorKeys = new WeakMap<EntrySession, number>();
let editorsMade = 0;
function editorKeyOf(session: EntrySession): number {
  let key = editorKeys.get(session);
  if (key === undefined) editorKeys.set(session, (key = ++editorsMade));
  return key;
}

function EditorLoader({ slug, id }: { slug: string; id?: string }) {
  const t = useT();
  const collections = useQuery(collectionsQuery);
  const entry = useQuery({ ...entryQuery(slug, id ?? ''), enabled: id !== undefined, staleTime: 0, gcTime: 0 });
  if (collections.isPending || (id !== undefined && entry.isPending)) return <p>{t('loading')}</p>;
  const collection = collections.data?.items.find((candidate) => candidate.slug === slug);
  if (!collection) return <NotFoundScreen message={t('notFound.collection', { slug })} />;
  if (id !== undefined && entry.error) return <EntryUnavailable collection={collection} id={id} error={entry.error} retry={() => void entry.refetch()} />;
  const sessionKey = `${collection.slug}/${id ?? newEntryId}`;
  const session = sessionFor(collection, sessionKey, entry.data?.item);
  return <Editor key={editorKeyOf(session)} sessionKey={sessionKey} session={session} collection={collection} />;
}

/** An entry that cannot be read: not there (perhaps in the trash, which this screen can take it out of), or another error, named. */
function EntryUnavailable({ collection, id, error, retry }: { collection: ContentCollection; id: string; error: Error; retry: () => void }) {
  const t = useT();
  const [problem, setProblem] = useState<string>();
  if (!(error instanceof ApiError) || error.status !== 404) {
    return (
      <section className="problem" role="alert">
        <h1>{t('error.title')}</h1>
        <p>{error instanceof ApiError && error.status === 401 ? t('editor.session.ended') : error.message}</p>
        <Button onPress={retry}>{t('error.retry')}</Button>
      </section>
    );
  }
  const restore = async () => {
    try {
      await dataOf(api.POST('/_cms/api/content/{collection}/{id}/restore', { params: { path: { collection: collection.slug, id } }, body: {} }), { onUnauthorized: 'throw' });
      retry();
    } catch (failure) {
      setProblem(failure instanceof Error ? failure.message : String(failure));
    }
  };
  return (
    <section className="problem">
      <h1>{t('notFound.title')}</h1>
      <p>{t('editor.notFound', { label: collection.labelSingular ?? collection.label })}</p>
      <Button onPress={() => void restore()}>{t('editor.action.restore')}</Button>
      {problem !== undefined && <p role="alert">{problem}</p>}
    </section>
  );
}

function Editor({ sessionKey, session, collection }: { sessionKey: string; session: EntrySession; collection: ContentCollection }) {
  const t = useT();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const role = useQuery(meQuery).data?.item.role ?? 0;
  const state = useSyncExternalStore(session.subscribe, session.snapshot);
  useEffect(() => {
    session.onCreated = (item) => {
      refile(sessionKey, `${collection.slug}/${item.id}`, session);
      // The entry as the server answered it: its address opens at once, with this editor still in place.
      queryClient.setQueryData(entryQuery(collection.slug, item.id).queryKey, { item });
      void navigate({ to: '/content/$collection/$id', params: { collection: collection.slug, id: item.id }, replace: true, resetScroll: false });
    };
    return () => {
      session.onCreated = undefined;
      release(sessionKey, session);
    };
  }, [session, sessionKey, collection.slug, navigate, queryClient]);
  // Closing the tab with edits unsent: the browser asks first (they are kept in IndexedDB either way).
  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => {
      if (Object.keys(session.snapshot().edits).length > 0) event.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [session]);

  const label = collection.labelSingular ?? collection.label;
  const heading = state.entry ? entryTitle(collection, { ...state.entry, data: session.values() }) : t('editor.newTitle', { label });
  return (
    <div className="editor">
      <div className="editor-main">
        <h1>{heading}</h1>
        <SaveStatus state={state} onRetry={() => session.retry()} />
        {state.recovered && (
          <section className="notice" aria-labelledby="recovered-heading">
            <h2 id="recovered-heading">{t('editor.recovered.title')}</h2>
            <p>{t('editor.recovered.body', { count: Object.keys(state.recovered.edits).length, fields: Object.keys(state.recovered.edits).map((slug) => collection.fields.find((field) => field.slug === slug)?.label ?? slug).join(', ') })}</p>
            <div className="field-actions">
              <Button onPress={() => session.restoreRecovered()}>{t('editor.recovered.restore')}</Button>
              <Button onPress={() => session.discardRecovered()}>{t('editor.recovered.discard')}</Button>
            </div>
          </section>
        )}
        {state.save === 'gone' && (
          <section className="notice" role="alert">
            <p>{t('editor.gone', { label })}</p>
            <Button onPress={() => void session.saveAsNew()}>{t('editor.gone.saveAsNew')}</Button>
          </section>
        )}
        <EntryForm collection={collection} session={session} state={state} />
      </div>
      <EntrySidebar collection={collection} session={session} state={state} role={role} />
      <ConflictDialog collection={collection} session={session} state={state} />
      <SignInDialog state={state} onRetry={() => session.retry()} />
    </div>
  );
}
