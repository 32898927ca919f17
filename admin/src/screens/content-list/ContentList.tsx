import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, useState } from 'react';
import { Button, Checkbox, Label, Radio, RadioGroup } from 'react-aria-components';
import type { ContentCollection } from '../../api/client';
import { collectionsQuery, entryListQuery, meQuery, type ListRow } from '../../api/queries';
import { entryTitle } from '../../entries';
import { useDateFormat, useT, type Translate } from '../../i18n/i18n';
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
  const chosen = search.columns === undefined ? defaultColumnIds(collection) : search.columns.split(',').filter(Boolean);
  const columns = searching ? searchColumns(collection) : shownColumns(collection, chosen, { trash });
  const sort = 'orderBy' in view ? view.orderBy : undefined;
  const order = 'order' in view ? view.order : undefined;
  const list = useInfiniteQuery(entryListQuery(collection.slug, view));
  const rows = list.data?.pages.flatMap((page) => page.items) ?? [];

  // The selection is of what this view shows: another view (filter, search, trash) starts without one.
  const viewKey = JSON.stringify(view);
  const [selection, setSelection] = useState<{ view: string; ids: ReadonlySet<string> }>({ view: viewKey, ids: new Set() });
  const selected = selection.view === viewKey ? selection.ids : new Set<string>();
  const select = (ids: ReadonlySet<string>) => setSelection({ view: viewKey, ids });
  const toggle = (id: string, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(id);
    else next.delete(id);
    select(next);
  };
  const allSelected = rows.length > 0 && rows.every((row) => selected.has(row.id));

  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => scroller.current, estimateSize: () => rowHeight, overscan: 8 });
  const visible = virtualizer.getVirtualItems();
  const last = visible.at(-1)?.index ?? 0;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && last >= rows.length - prefetchRows) void fetchNextPage();
  }, [last, rows.length, hasNextPage, isFetchingNextPage, fetchNextPage]);

  const setSearch = (change: Partial<ListSearch>) => void navigate({ search: (previous) => ({ ...previous, ...change }), replace: false });
  const sortBy = (column: Column) => setSearch({ sort: column.sortKey, order: sort === column.sortKey && order === 'asc' ? 'desc' : 'asc' });
  const template = `${selectColumn} ${gridTemplate(columns)}`;
  const tableLabel = t('list.rows', { collection: collection.label });
  const titles = new Map(rows.map((row) => [row.id, rowTitle(collection, row)]));

  return (
    <>
      <div className="list-head">
        <h1>{collection.label}</h1>
        <Link className="new-entry" to="/content/$collection/new" params={{ collection: collection.slug }}>
          {t('list.new', { label: collection.labelSingular ?? collection.label })}
        </Link>
        <RadioGroup
          className="status-filter"
          orientation="horizontal"
          value={search.status ?? 'all'}
          onChange={(value) => setSearch({ status: value === 'all' ? undefined : (value as ListSearch['status']) })}
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
      <ListFilters collection={collection} search={search} me={me} onChange={setSearch} />
      {!searching && <ColumnChooser collection={collection} chosen={chosen} onChange={(ids) => setSearch({ columns: ids.join(',') })} />}
      {me && <BulkBar collection={collection} role={me.role} trash={trash} selected={[...selected]} titles={titles} onDone={() => select(new Set())} />}
      <div ref={scroller} className="list-scroller" tabIndex={0} role="region" aria-label={tableLabel}>
        <div role="table" aria-label={tableLabel} aria-rowcount={list.hasNextPage ? -1 : rows.length + 1} className="entry-table" style={{ ['--columns' as string]: template }}>
          <div role="rowgroup" className="entry-table-head">
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
          </div>
          <div role="rowgroup" className="entry-table-body" style={{ blockSize: virtualizer.getTotalSize() }}>
            {visible.map((item) => {
              const row = rows[item.index]!;
              return (
                <EntryRow
                  key={row.id}
                  collection={collection.slug}
                  row={row}
                  title={titles.get(row.id)!}
                  columns={columns}
                  index={item.index}
                  start={item.start}
                  selected={selected.has(row.id)}
                  onSelect={(on) => toggle(row.id, on)}
                  t={t}
                />
              );
            })}
          </div>
        </div>
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
      </div>
    </>
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
  onSelect: (on: boolean) => void;
  t: Translate;
}

function EntryRow({ collection, row, title, columns, index, start, selected, onSelect, t }: RowProps) {
  const formatDate = useDateFormat();
  return (
    <div role="row" aria-rowindex={index + 2} className="entry-row" style={{ transform: `translateY(${start}px)` }}>
      <div role="cell" className="entry-cell cell-select">
        <Checkbox aria-label={t('list.select', { title })} isSelected={selected} onChange={onSelect}>
          <span className="check" aria-hidden="true" />
        </Checkbox>
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
}
