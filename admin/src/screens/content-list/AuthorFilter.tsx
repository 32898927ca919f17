import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Button, ComboBox, Input, Label, ListBox, ListBoxItem, Popover } from 'react-aria-components';
import { authorNameQuery, authorsQuery } from '../../api/queries';
import { useDebouncedValue } from '../../debounce';
import { useT } from '../../i18n/i18n';

interface Props {
  collection: string;
  /** The URL's user id. */
  author: string | undefined;
  onChange: (author: string | undefined) => void;
}

/** How long typing must pause before the server is asked for the names. */
const typingPause = 250;

/**
 * A ComboBox of the people who created the collection's entries (GET /authors), asked for by name as
 * one types; the choice filters through the API (`author=`). The names last found stay listed while
 * the next ones come, so the box never blinks empty between two keys.
 */
export default function AuthorFilter({ collection, author, onChange }: Props) {
  const t = useT();
  const queryClient = useQueryClient();
  const [typed, setTyped] = useState<string | undefined>(undefined);
  const text = useDebouncedValue((typed ?? '').trim(), typingPause);
  const found = useQuery({ ...authorsQuery(collection, text), placeholderData: keepPreviousData });
  const chosenName = useQuery({ ...authorNameQuery(collection, author ?? ''), enabled: author !== undefined }).data;
  return (
    <div className="term-filter">
      <ComboBox
        items={found.data?.items ?? []}
        allowsEmptyCollection
        inputValue={typed ?? chosenName ?? ''}
        onInputChange={setTyped}
        selectedKey={author ?? null}
        onSelectionChange={(key) => {
          // Typing clears the box's selection (null): the filter stays until another person is chosen or it is cleared.
          if (key === null) return;
          // The chosen name is known already: shown at once, it never blinks empty, which would count as typing and open the box again.
          const chosen = found.data?.items.find((item) => item.id === key);
          if (chosen) queryClient.setQueryData(authorNameQuery(collection, chosen.id).queryKey, chosen.name);
          onChange(String(key));
          setTyped(undefined);
        }}
        menuTrigger="input"
      >
        <Label>{t('list.author')}</Label>
        <div className="combo">
          <Input />
          <Button aria-label={t('list.authorShow')}>▾</Button>
        </div>
        <Popover className="combo-popover">
          <ListBox className="combo-list" renderEmptyState={() => <p className="combo-empty">{found.isPending ? t('loading') : t('list.authorNone')}</p>}>
            {(item: { id: string; name: string }) => (
              <ListBoxItem className="combo-item" id={item.id} textValue={item.name}>
                {item.name}
              </ListBoxItem>
            )}
          </ListBox>
        </Popover>
      </ComboBox>
      {author !== undefined && (
        <Button
          className="react-aria-Button"
          onPress={() => {
            setTyped(undefined);
            onChange(undefined);
          }}
        >
          {t('list.authorClear')}
        </Button>
      )}
    </div>
  );
}
