import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Button, ComboBox, Input, ListBox, ListBoxItem, Popover } from 'react-aria-components';
import { ApiError } from '../../api/client';
import { collectionsQuery, entryPageQuery, entryQuery } from '../../api/queries';
import { useDebouncedValue } from '../../debounce';
import { entryTitle } from '../../entries';
import { useT } from '../../i18n/i18n';
import type { FieldInputProps } from '../input';
import { labelIdOf } from '../input';

interface Candidate {
  id: string;
  title: string;
}

/** How many candidates the box offers at once: a title typed narrows them. */
const shownCandidates = 20;
/** How long typing must pause before the server is asked for the matching titles. */
const typingPause = 250;

/**
 * reference fields: a combobox that asks the target collection (`options.collection`) for the entries
 * whose title contains what is typed (the API's `q`, so any of a million entries can be found), the
 * most recently changed first; the candidates last found stay listed while the next ones come. It
 * says so when the entry referred to was deleted or cannot be read, instead of failing.
 */
export function ReferenceInput(props: FieldInputProps<string | null>) {
  const t = useT();
  const target = props.field.options.collection ?? '';
  const collection = useQuery(collectionsQuery).data?.items.find((candidate) => candidate.slug === target);
  const current = props.value ?? undefined;
  const selected = useQuery({ ...entryQuery(target, current ?? ''), enabled: current !== undefined && target !== '' });
  const [typed, setTyped] = useState<string | undefined>(undefined);
  const words = useDebouncedValue((typed ?? '').trim(), typingPause);
  const candidates = useQuery({
    ...entryPageQuery(target, { limit: shownCandidates, orderBy: 'updatedAt', order: 'desc', ...(words === '' ? {} : { q: words }) }),
    enabled: target !== '',
    placeholderData: keepPreviousData,
  });
  const listed = candidates.data?.items.find((entry) => entry.id === current);
  // The title at once from the candidates when the entry is among them: a title that blinked empty while
  // the entry is read would count as typing and open the box again.
  const shownEntry = selected.data?.item ?? listed;
  const selectedTitle = collection && shownEntry ? entryTitle(collection, shownEntry) : '';
  // Until something is typed the box shows the chosen entry's title, once it has been read.
  useEffect(() => setTyped(undefined), [current]);
  const text = typed ?? selectedTitle;
  const items: Candidate[] = (candidates.data?.items ?? []).map((entry) => ({ id: entry.id, title: collection ? entryTitle(collection, entry) : entry.slug }));
  const missing = current !== undefined && selected.error instanceof ApiError && (selected.error.status === 404 || selected.error.status === 403);
  const unreadable = current !== undefined && selected.isError && !missing;
  return (
    <div className="field-reference">
      <ComboBox
        aria-labelledby={labelIdOf(props.id)}
        aria-describedby={props.error !== undefined ? props.errorId : undefined}
        isInvalid={props.error !== undefined}
        isReadOnly={props.readOnly}
        items={items}
        allowsEmptyCollection
        inputValue={text}
        onInputChange={setTyped}
        selectedKey={current ?? null}
        onSelectionChange={(key) => {
          // Typing clears the box's selection (null): the value stays until another entry is chosen or Clear is pressed.
          if (key === null) return;
          props.onChange(String(key));
          setTyped(undefined);
        }}
      >
        <div className="combo">
          <Input id={props.id} className="field-input" placeholder={t('editor.reference.search', { collection: collection?.label ?? target })} />
          <Button className="combo-button" aria-label={t('editor.reference.show')}>
            ▾
          </Button>
        </div>
        <Popover className="combo-popover">
          <ListBox className="combo-list" renderEmptyState={() => <p className="combo-empty">{candidates.isPending ? t('loading') : t('editor.reference.none')}</p>}>
            {(item: Candidate) => (
              <ListBoxItem className="combo-item" id={item.id} textValue={item.title}>
                {item.title}
              </ListBoxItem>
            )}
          </ListBox>
        </Popover>
      </ComboBox>
      {missing && <p className="media-missing">{t('editor.reference.missing', { id: current })}</p>}
      {unreadable && <p className="media-missing">{t('editor.reference.unreadable')}</p>}
      {current !== undefined && !props.readOnly && (
        <Button className="link-button" onPress={() => props.onChange(undefined)}>
          {t('editor.reference.clear')}
        </Button>
      )}
    </div>
  );
}
