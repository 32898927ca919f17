import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { Button, Checkbox, Input, Label, SearchField } from 'react-aria-components';
import type { ContentCollection } from '../../api/client';
import { taxonomiesQuery } from '../../api/queries';
import { useT } from '../../i18n/i18n';
import type { ListSearch } from './search';

// The term and author pickers are ComboBoxes (a popover and a listbox): their own chunks, loaded when asked for, so a list without them stays small.
const TermFilter = lazy(() => import('./TermFilter'));
const AuthorFilter = lazy(() => import('./AuthorFilter'));

interface Props {
  collection: ContentCollection;
  search: ListSearch;
  me: { id: string } | undefined;
  /** The site's locales: a filter by locale is offered when there are several. */
  locales: string[];
  onChange: (change: Partial<ListSearch>) => void;
}

/** The search box and the filters by locale, term and author; each is the URL's, so a view can be shared. */
export function ListFilters({ collection, search, me, locales, onChange }: Props) {
  const t = useT();
  const [text, setText] = useState(search.q ?? '');
  const [pickingTerm, setPickingTerm] = useState(false);
  const [pickingAuthor, setPickingAuthor] = useState(false);
  const taxonomies = useQuery(taxonomiesQuery).data?.items.filter((taxonomy) => taxonomy.collections.includes(collection.slug)) ?? [];
  const searchable = collection.supports.includes('search');
  const trash = search.status === 'trash';
  return (
    <div className="list-filters">
      {searchable && !trash && (
        <SearchField
          className="list-search"
          value={text}
          onChange={setText}
          onSubmit={(value) => onChange({ q: value.trim() === '' ? undefined : value.trim() })}
          onClear={() => onChange({ q: undefined })}
        >
          <Label>{t('list.search')}</Label>
          <Input />
          <Button aria-label={t('list.searchClear')}>✕</Button>
        </SearchField>
      )}
      {search.q === undefined && !trash && (
        <>
          {locales.length > 1 && (
            // A native select: a short fixed list needs no popover, and costs the list's first load nothing.
            <div className="locale-filter">
              <label htmlFor="list-locale">{t('list.locale')}</label>
              <select id="list-locale" value={search.locale ?? ''} onChange={(event) => onChange({ locale: event.target.value === '' ? undefined : event.target.value })}>
                <option value="">{t('list.allLocales')}</option>
                {locales.map((locale) => (
                  <option key={locale} value={locale}>
                    {locale}
                  </option>
                ))}
              </select>
            </div>
          )}
          {me && (
            <Checkbox isSelected={search.author === me.id} onChange={(mine) => onChange({ author: mine ? me.id : undefined })}>
              <span className="check" aria-hidden="true" />
              {t('list.mine')}
            </Checkbox>
          )}
          {pickingAuthor || (search.author !== undefined && search.author !== me?.id) ? (
            <Suspense fallback={<span>{t('loading')}</span>}>
              <AuthorFilter collection={collection.slug} author={search.author} onChange={(author) => onChange({ author })} />
            </Suspense>
          ) : (
            <Button className="react-aria-Button" onPress={() => setPickingAuthor(true)}>
              {t('list.filterAuthor')}
            </Button>
          )}
          {taxonomies.length > 0 &&
            (pickingTerm || search.term !== undefined ? (
              <Suspense fallback={<span>{t('loading')}</span>}>
                <TermFilter taxonomies={taxonomies} term={search.term} onChange={(term) => onChange({ term })} />
              </Suspense>
            ) : (
              <Button className="react-aria-Button" onPress={() => setPickingTerm(true)}>
                {t('list.filterTerm')}
              </Button>
            ))}
        </>
      )}
    </div>
  );
}
