import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { Button, Checkbox, Input, Label, SearchField } from 'react-aria-components';
import type { ContentCollection } from '../../api/client';
import { taxonomiesQuery } from '../../api/queries';
import { useT } from '../../i18n/i18n';
import type { ListSearch } from './search';

// The term picker is a ComboBox (a popover and a listbox): its own chunk, loaded when asked for, so a list without it stays small.
const TermFilter = lazy(() => import('./TermFilter'));

interface Props {
  collection: ContentCollection;
  search: ListSearch;
  me: { id: string } | undefined;
  onChange: (change: Partial<ListSearch>) => void;
}

/** The search box and the filters by term and by author; each is the URL's, so a view can be shared. */
export function ListFilters({ collection, search, me, onChange }: Props) {
  const t = useT();
  const [text, setText] = useState(search.q ?? '');
  const [pickingTerm, setPickingTerm] = useState(false);
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
          {me && (
            <Checkbox isSelected={search.author === me.id} onChange={(mine) => onChange({ author: mine ? me.id : undefined })}>
              <span className="check" aria-hidden="true" />
              {t('list.mine')}
            </Checkbox>
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
