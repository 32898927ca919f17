import { useQuery } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { useDebouncedValue } from '../debounce';
import { Autocomplete, Collection, Dialog, Header, Input, Label, ListBox, ListBoxItem, ListBoxSection, Modal, ModalOverlay, Text, TextField } from 'react-aria-components';
import { collectionsQuery, meQuery } from '../api/queries';
import { useT } from '../i18n/i18n';
import { canWriteContent } from '../roles';
import { collectionPlaces, entryPath, matches, screens, searchText, type Place } from './places';
import { searchQuery, suggestQuery } from './queries';
import './palette.css';

interface Group {
  id: string;
  title: string;
  places: Place[];
}

/**
 * The command palette (decisions/0048): a modal dialog holding a text field and a list of places
 * (React Aria's Autocomplete: the focus stays in the field, arrows move through the list, Enter goes,
 * Escape closes). Screens and collections are filtered here; entries come from the API's title
 * suggestions and its full-text search, merged, each entry once.
 */
export function CommandPalette({ onClose }: { onClose: () => void }) {
  const t = useT();
  const router = useRouter();
  const [typed, setTyped] = useState('');
  const settled = useDebouncedValue(typed, 150);
  const me = useQuery(meQuery);
  const writer = me.data !== undefined && canWriteContent(me.data.item.role);
  const role = me.data?.item.role ?? 0;
  const collections = useQuery({ ...collectionsQuery, enabled: writer });
  const suggested = useQuery({ ...suggestQuery(settled), enabled: writer && settled.trim() !== '' });
  const found = useQuery({ ...searchQuery(searchText(settled)), enabled: writer && settled.trim() !== '' });

  const groups = useMemo((): Group[] => {
    const labelOf = new Map((collections.data?.items ?? []).map((collection) => [collection.slug, collection.label]));
    const screenPlaces = screens
      .filter((screen) => screen.path in router.routesByPath && role >= (screen.minRole ?? 0))
      .map((screen) => ({ id: `screen:${screen.path}`, path: screen.path, label: t(screen.label) }))
      .filter((place) => matches(place.label, typed));
    const collectionList = collectionPlaces(collections.data?.items ?? [], (collection) => t('palette.collectionList', { collection: collection.label })).filter((place) => matches(place.label, typed));
    const seen = new Set<string>();
    const entries: Place[] = [];
    for (const hit of [...(suggested.data?.items ?? []), ...(found.data?.results ?? [])]) {
      const id = `entry:${hit.collection}:${hit.id}`;
      if (seen.has(id) || !labelOf.has(hit.collection)) continue;
      seen.add(id);
      entries.push({ id, path: entryPath(hit.collection, hit.id), label: hit.title || hit.slug, detail: t('palette.entryIn', { collection: labelOf.get(hit.collection) }) });
    }
    return [
      { id: 'screens', title: t('palette.screens'), places: screenPlaces },
      { id: 'collections', title: t('palette.collections'), places: collectionList },
      { id: 'entries', title: t('palette.entries'), places: settled === typed ? entries : [] },
    ].filter((group) => group.places.length > 0);
  }, [collections.data, suggested.data, found.data, typed, settled, router.routesByPath, role, t]);

  const pathOf = new Map(groups.flatMap((group) => group.places.map((place) => [place.id, place.path] as const)));
  const searching = typed.trim() !== '' && (typed !== settled || suggested.isFetching || found.isFetching);

  return (
    <ModalOverlay className="palette-overlay" isOpen isDismissable onOpenChange={(open) => (open ? undefined : onClose())}>
      <Modal className="palette">
        <Dialog aria-label={t('palette.title')}>
          <Autocomplete inputValue={typed} onInputChange={setTyped}>
            <TextField autoFocus className="palette-field">
              <Label>{t('palette.search')}</Label>
              <Input />
              <Text slot="description" className="palette-state">
                {searching ? t('palette.searching') : ''}
              </Text>
            </TextField>
            <ListBox
              className="palette-list"
              aria-label={t('palette.results')}
              items={groups}
              onAction={(key) => {
                const path = pathOf.get(String(key));
                if (path === undefined) return;
                onClose();
                void router.navigate({ to: path as '/' });
              }}
              renderEmptyState={() => <p className="palette-empty">{searching ? t('palette.searching') : t('palette.nothing')}</p>}
            >
              {(group) => (
                <ListBoxSection id={group.id}>
                  <Header>{group.title}</Header>
                  <Collection items={group.places}>
                    {(place) => (
                      <ListBoxItem id={place.id} textValue={place.label}>
                        <Text slot="label">{place.label}</Text>
                        {place.detail && <Text slot="description">{place.detail}</Text>}
                      </ListBoxItem>
                    )}
                  </Collection>
                </ListBoxSection>
              )}
            </ListBox>
          </Autocomplete>
        </Dialog>
      </Modal>
    </ModalOverlay>
  );
}
