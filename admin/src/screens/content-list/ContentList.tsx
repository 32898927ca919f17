import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { Button, Checkbox, Label, Radio, RadioGroup } from 'react-aria-components';
import type { ContentCollection } from '../../api/client';
import { collectionsQuery, entryListQuery, meQuery, type ListRow } from '../../api/queries';
import { entryTitle, newEntryId } from '../../entries';
import { useDateFormat, useT, type Translate } from '../../i18n/i18n';
import { useSiteLocales } from '../../locales';
import { NotFoundScreen } from '../../shell/Problems';
import { BulkBar } from './BulkBar';
import { ColumnChooser } from './ColumnChooser';
import { columnLabel, defaultColumnIds, gridTemplate, searchColumns, shownColumns, type Column } from './columns';
import { ListFilters } from './ListFilters';
import { listFilters, listView, type ListSearch } from './search';
import './list.css';

// Typed by the route's declaration in router.tsx, without importing the router back into this chunk.
const contentListRoute = getRouteApi('/content/$collection');

const rowHeight = 44;
/** How close to the last loaded row the next page is asked for, in rows. */
const prefetchRows = 30;
/** The selection column's share of the row. */
const selectColumn = '3rem';

/** A collection's entries: one virtualized list of every page, filtered and sorted as its URL says. */
export function ContentList() {
  const t = useT();
  const { collection: slug } = contentListRoute.useParams();
  const collections = useQuery(collectionsQuery);
  if (collections.isPending) return <p>{t('loading')}</p>;
  const collection = collections.data?.items.find((candidate) => candidate.slug === slug);
  if (!collection) return <NotFoundScreen message={t('notFound.collection', { slug })} />;
  return <EntryTable key={collection.slug} collection={collection} />;
}

/** How a row is named: its entry's title, or the title the search gave. */
function rowTitle(collection: ContentCollection, row: ListRow): string {
  return 'entry' in row ? entryTitle(collection, row.entry) : row.match.title;
}

function EntryTable({ collection }: { collection: ContentCollection }) {
  const t = useT();
  const search = contentListRoute.useSearch();
  const navigate = contentListRoute.useNavigate();
  const me = useQuery(meQuery).data?.item;
  const view = listView(search);
  const trash = 'status' in view && view.status === 'trash';
  const searching = 'search' in view;
  const chosen = useMemo(() => (search.columns === undefined ? defaultColumnIds(collection) : search.columns.split(',').filter(Boolean)), [collection, search.columns]);
  const locales = useSiteLocales();
  // While every locale is listed, each row says which it is in.
  const allLocales = locales.length > 1 && !('locale' in view && view.locale !== undefined);
  // Kept from render to render (as are the rows, their titles and the callbacks), so that scrolling
  // renders only the rows that come into view: the others are memoized on them.
  const columns = useMemo(
    () => (searching ? searchColumns(collection) : shownColumns(collection, chosen, { trash, allLocales })),
    [searching, collection, chosen, trash, allLocales],
  );
  const sort = 'orderBy' in view ? view.orderBy : undefined;
  const order = 'order' in view ? view.order : undefined;
  const list = useInfiniteQuery(entryListQuery(collection.slug, view));
  const rows = useMemo(() => list.data?.pages.flatMap((page) => page.items) ?? [], [list.data]);

  // The selection is of what this view shows: another view (filter, search, trash) starts without one.
  const viewKey = JSON.stringify(view);
  const [selection, setSelection] = useState<{ view: string; ids: ReadonlySet<string> }>({ view: viewKey, ids: new Set() });
  const selected = useMemo(() => (selection.view === viewKey ? selection.ids : new Set<string>()), [selection, viewKey]);
  const select = (ids: ReadonlySet<string>) => setSelection({ view: viewKey, ids });
  const toggle = useCallback(
    (id: string, on: boolean) =>
      setSelection((current) => {
        const next = new Set(current.view === viewKey ? current.ids : []);
        if (on) next.add(id);
        else next.delete(id);
        return { view: viewKey, ids: next };
      }),
    [viewKey],
  );
  const allSelected = rows.length > 0 && rows.every((row) => selected.has(row.id));

  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;
  const nearEnd = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage]);

  const setSearch = useCallback((change: Partial<ListSearch>) => void navigate({ search: (previous) => ({ ...previous, ...change }), replace: false }), [navigate]);
  const sortBy = (column: Column) => setSearch({ sort: column.sortKey, order: sort === column.sortKey && order === 'asc' ? 'desc' : 'asc' });
  const template = `${selectColumn} ${gridTemplate(columns)}`;
  const tableLabel = t('list.rows', { collection: collection.label });
  const titles = useMemo(() => new Map(rows.map((row) => [row.id, rowTitle(collection, row)])), [rows, collection]);

  return (
    <>
      <ListControls collection={collection} search={search} me={me} locales={locales} chosen={chosen} searching={searching} onChange={setSearch} />
      {me && <BulkBar collection={collection} role={me.role} trash={trash} selected={[...selected]} titles={titles} onDone={() => select(new Set())} />}
      <VirtualRows
        label={tableLabel}
        template={template}
        rows={rows}
        complete={!hasNextPage}
        onNearEnd={nearEnd}
        head={
          <div role="row" aria-rowindex={1} className="entry-row">
            <div role="columnheader" className="entry-cell cell-select">
              <Checkbox
                aria-label={t('list.selectAll')}
                isSelected={allSelected}
                isIndeterminate={selected.size > 0 && !allSelected}
                isDisabled={rows.length === 0}
                onChange={(on) => select(on ? new Set(rows.map((row) => row.id)) : new Set())}
              >
                <span className="check" aria-hidden="true" />
              </Checkbox>
            </div>
            {columns.map((column) => (
              <HeaderCell key={column.id} column={column} sort={sort} order={order} onSort={sortBy} t={t} />
            ))}
          </div>
        }
        row={(row, index, start) => (
          <EntryRow
            key={row.id}
            collection={collection.slug}
            row={row}
            title={titles.get(row.id)!}
            columns={columns}
            index={index}
            start={start}
            selected={selected.has(row.id)}
            onSelect={toggle}
            t={t}
          />
        )}
        notes={
          <>
            {list.isPending && <p className="list-note">{t('loading')}</p>}
            {list.isError && (
              <p className="list-note" role="alert">
                {list.error.message}
              </p>
            )}
            {list.isSuccess && rows.length === 0 && <p className="list-note">{searching ? t('list.noMatches') : t('list.empty')}</p>}
            {isFetchingNextPage && (
              <p className="list-note" role="status">
                {t('list.loadingMore')}
              </p>
            )}
          </>
        }
      />
    </>
  );
}

interface ControlsProps {
  collection: ContentCollection;
  search: ListSearch;
  me: { id: string } | undefined;
  locales: string[];
  chosen: string[];
  searching: boolean;
  onChange: (change: Partial<ListSearch>) => void;
}

/** The heading, the filters and the column chooser: memoized, so a page of rows arriving leaves them be. */
const ListControls = memo(function ListControls({ collection, search, me, locales, chosen, searching, onChange }: ControlsProps) {
  const t = useT();
  return (
    <>
      <div className="list-head">
        <h1>{collection.label}</h1>
        <Link className="new-entry" to="/content/$collection/$id" params={{ collection: collection.slug, id: newEntryId }}>
          {t('list.new', { label: collection.labelSingular ?? collection.label })}
        </Link>
        <RadioGroup
          className="status-filter"
          orientation="horizontal"
          value={search.status ?? 'all'}
          onChange={(value) => onChange({ status: value === 'all' ? undefined : (value as ListSearch['status']) })}
        >
          <Label>{t('list.filterStatus')}</Label>
          <Radio value="all">{t('status.all')}</Radio>
          {listFilters.map((status) => (
            <Radio key={status} value={status}>
              {t(`status.${status}`)}
            </Radio>
          ))}
        </RadioGroup>
      </div>
      <ListFilters collection={collection} search={search} me={me} locales={locales} onChange={onChange} />
      {!searching && <ColumnChooser collection={collection} chosen={chosen} onChange={(ids) => onChange({ columns: ids.join(',') })} />}
    </>
  );
});

interface VirtualRowsProps {
  label: string;
  template: string;
  rows: ListRow[];
  /** Every row is loaded: the table says how many there are. */
  complete: boolean;
  /** Called as the rows shown come near the last loaded one. */
  onNearEnd: () => void;
  head: ReactNode;
  row: (row: ListRow, index: number, start: number) => ReactNode;
  notes: ReactNode;
}

/**
 * The scrolled table. Scrolling renders this alone: the head and notes come in as elements made by
 * the screen, which React skips when they are the same, and the rows are memoized, so a frame of
 * scrolling renders just the rows coming into view, not the filters, the toolbar and every row.
 */
function VirtualRows({ label, template, rows, complete, onNearEnd, head, row, notes }: VirtualRowsProps) {
  const scroller = useRef<HTMLDivElement>(null);
  // Until the scroller is measured, the window's height (the scroller is a little shorter): the first
  // render then makes the rows the screen shows, where a height of 0 made the overscan's alone and a
  // second render after measuring.
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scroller.current, estimateSize: () => rowHeight, overscan: 8, initialRect: { width: 0, height: window.innerHeight } });
  const visible = virtualizer.getVirtualItems();
  const last = visible.at(-1)?.index ?? 0;
  useEffect(() => {
    if (last >= rows.length - prefetchRows) onNearEnd();
  }, [last, rows.length, onNearEnd]);
  return (
    <div ref={scroller} className="list-scroller" tabIndex={0} role="region" aria-label={label}>
      <div role="table" aria-label={label} aria-rowcount={complete ? rows.length + 1 : -1} className="entry-table" style={{ ['--columns' as string]: template }}>
        <div role="rowgroup" className="entry-table-head">
          {head}
        </div>
        <div role="rowgroup" className="entry-table-body" style={{ blockSize: virtualizer.getTotalSize() }}>
          {visible.map((item) => row(rows[item.index]!, item.index, item.start))}
        </div>
      </div>
      {notes}
    </div>
  );
}

function HeaderCell({ column, sort, order, onSort, t }: { column: Column; sort?: string; order?: 'asc' | 'desc'; onSort: (column: Column) => void; t: Translate }) {
  const label = columnLabel(column, t);
  const active = column.sortKey !== undefined && column.sortKey === sort;
  return (
    <div role="columnheader" className="entry-cell" aria-sort={active ? (order === 'asc' ? 'ascending' : 'descending') : undefined}>
      {column.sortKey === undefined ? (
        label
      ) : (
        <Button className="sort-button" onPress={() => onSort(column)} aria-label={t('list.sortBy', { column: label })}>
          {label}
          <span aria-hidden="true" className="sort-mark">
            {active ? (order === 'asc' ? '▲' : '▼') : ''}
          </span>
        </Button>
      )}
    </div>
  );
}

interface RowProps {
  collection: string;
  row: ListRow;
  title: string;
  columns: Column[];
  index: number;
  start: number;
  selected: boolean;
  onSelect: (id: string, on: boolean) => void;
  t: Translate;
}

/**
 * A row's checkbox: the native control, drawn as React Aria's Checkbox is (the header's select-all,
 * which also shows "some"). Mounting React Aria's for each row was a fifth of the list's first render
 * on a visit with nothing cached (its hooks and effects, about 2 ms a row); the native one needs none.
 */
function RowCheckbox({ label, checked, onChange }: { label: string; checked: boolean; onChange: (on: boolean) => void }) {
  return (
    <label className="row-check">
      <input type="checkbox" aria-label={label} checked={checked} onChange={(event) => onChange(event.target.checked)} />
      <span className="check" aria-hidden="true" />
    </label>
  );
}

const EntryRow = memo(function EntryRow({ collection, row, title, columns, index, start, selected, onSelect, t }: RowProps) {
  const formatDate = useDateFormat();
  return (
    <div role="row" aria-rowindex={index + 2} className="entry-row" style={{ transform: `translateY(${start}px)` }}>
      <div role="cell" className="entry-cell cell-select">
        <RowCheckbox label={t('list.select', { title })} checked={selected} onChange={(on) => onSelect(row.id, on)} />
      </div>
      {columns.map((column) => {
        if (!('entry' in row)) {
          return (
            <div role="cell" key={column.id} className={`entry-cell cell-${column.kind}`}>
              {column.kind === 'title' ? (
                <Link to="/content/$collection/$id" params={{ collection, id: row.id }}>
                  {row.match.title}
                </Link>
              ) : (
                row.match.snippet
              )}
            </div>
          );
        }
        const { entry } = row;
        const value = column.value(entry);
        return (
          <div role="cell" key={column.id} className={`entry-cell cell-${column.kind}`}>
            {column.kind === 'title' ? (
              <Link to="/content/$collection/$id" params={{ collection, id: entry.id }}>
                {value}
              </Link>
            ) : column.kind === 'status' ? (
              <span className={`status status-${value}`}>{t(`status.${entry.status}`)}</span>
            ) : column.kind === 'date' && value !== '' ? (
              formatDate(value)
            ) : (
              value
            )}
          </div>
        );
      })}
    </div>
  );
});
