import { isoNow } from '../../core/clock.ts';
import { AppError } from '../../core/errors.ts';
import { newId } from '../../core/ids.ts';
import { slugify } from '../../core/slugs.ts';
import { inTransaction, type Transaction } from '../../db/dialect.ts';
import { checkLink, type LinkInput } from '../../menus/references.ts';
import * as menuStore from '../../menus/store.ts';
import { maxMenuDepth } from '../../menus/tree.ts';
import { itemRow, noteRow, type ImportRun } from './run-state.ts';
import type { NormalizedMenuItem } from '../sources/types.ts';
import * as store from '../store.ts';
import { taxonomyTarget } from './taxonomy-names.ts';

/**
 * Navigation menus, once every entry and term exists: each menu is created (or found by name), and
 * its items in parent-first order, each pointing at the imported entry or term, or keeping its custom
 * link; order and nesting as in the source. Each item's write and its checkpoint are one transaction.
 */
export async function importMenus(run: ImportRun, menus: readonly { name: string; label: string }[], signal: AbortSignal): Promise<void> {
  // Every menu first (those without items are menus too), each recorded once for this source.
  await inTransaction(run.ctx.db, async (tx) => {
    const known = await store.importedIds(tx, run.sourceKey, 'menu', menus.map((menu) => menu.name));
    const rows = [];
    for (const menu of menus) if (!known.has(menu.name)) rows.push(itemRow(run, 'menu', menu.name, (await menuFor(run, tx, { slug: menu.name, name: menu.label })).id));
    await store.insertImportItems(tx, rows);
  });
  const pending = (await store.importedOfKind(run.ctx.db, run.sourceKey, 'menu_item')).filter((row) => row.target_id === '' && row.data !== null);
  if (pending.length === 0) return;
  const made = new Map((await store.importedOfKind(run.ctx.db, run.sourceKey, 'menu_item')).filter((row) => row.target_id !== '').map((row) => [row.source_id, row.target_id]));
  const items = pending.map((row) => JSON.parse(row.data!) as NormalizedMenuItem);
  const remaining = new Map(items.map((item) => [item.sourceId, item]));
  // Parents first: an item waits until its parent is written (or is known to be missing).
  while (remaining.size > 0) {
    signal.throwIfAborted();
    const ready = [...remaining.values()].filter((item) => !item.parent || made.has(item.parent) || !remaining.has(item.parent)).sort((a, b) => a.order - b.order);
    if (ready.length === 0) break;
    for (const item of ready) {
      remaining.delete(item.sourceId);
      const id = await inTransaction(run.ctx.db, (tx) => writeMenuItem(run, tx, item, made));
      if (id !== undefined) made.set(item.sourceId, id);
    }
  }
  // What is left sits under itself through its ancestors: a cycle the source should not have had.
  for (const item of remaining.values()) {
    await store.insertNotes(run.ctx.db, [noteRow(run, 'failed', item.sourceId, item.label || null, 'menu item in a cycle of parents; not imported')]);
  }
}

async function menuFor(run: ImportRun, tx: Transaction, menu: NormalizedMenuItem['menu']): Promise<menuStore.MenuRow> {
  const cleaned = slugify(menu.slug).replace(/[^a-z0-9_-]/g, '');
  const name = /^[a-z]/.test(cleaned) ? cleaned.slice(0, 63) : `menu-${cleaned}`.slice(0, 63);
  const existing = await menuStore.findMenu(tx, name, { lock: true });
  if (existing) return existing;
  const now = isoNow(run.ctx.clock);
  const row: menuStore.MenuRow = { id: newId(), name, label: menu.name.slice(0, 200) || name, created_at: now, updated_at: now };
  await menuStore.insertMenu(tx, row);
  return row;
}

/** The link the item asks for in Folio's terms, or why it has none. */
async function linkOf(run: ImportRun, tx: Transaction, item: NormalizedMenuItem): Promise<LinkInput | string> {
  const { link } = item;
  if (link.kind === 'custom') return { type: 'custom', referenceCollection: null, referenceId: null, url: link.url };
  if (link.kind === 'post') {
    const target = (await store.importedIds(tx, run.sourceKey, 'post', [link.sourceId])).get(link.sourceId);
    if (!target || !target.collection) return `its target post ${link.sourceId} was not imported`;
    return { type: target.collection, referenceCollection: target.collection, referenceId: target.target_id, url: null };
  }
  const term = (await store.importedIds(tx, run.sourceKey, `termid:${link.taxonomy}`, [link.sourceId])).get(link.sourceId);
  if (!term) return `its target term ${link.sourceId} (${link.taxonomy}) was not imported`;
  return { type: 'taxonomy', referenceCollection: taxonomyTarget(link.taxonomy), referenceId: term.target_id, url: null };
}

async function writeMenuItem(run: ImportRun, tx: Transaction, item: NormalizedMenuItem, made: Map<string, string>): Promise<string | undefined> {
  const menu = await menuFor(run, tx, item.menu);
  const link = await linkOf(run, tx, item);
  const title = item.label || null;
  if (typeof link === 'string') {
    await store.insertNotes(tx, [noteRow(run, 'failed', item.sourceId, title, `menu item not imported: ${link}`)]);
    await store.setImportItemTarget(tx, { source_key: run.sourceKey, kind: 'menu_item', source_id: item.sourceId }, '-');
    return undefined;
  }
  let checked;
  try {
    checked = await checkLink(tx, link);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    await store.insertNotes(tx, [noteRow(run, 'failed', item.sourceId, title, `menu item not imported: ${error.message}`)]);
    await store.setImportItemTarget(tx, { source_key: run.sourceKey, kind: 'menu_item', source_id: item.sourceId }, '-');
    return undefined;
  }
  const parentId = item.parent ? made.get(item.parent) : undefined;
  if (item.parent && parentId === undefined) await store.insertNotes(tx, [noteRow(run, 'warning', item.sourceId, title, `its parent menu item ${item.parent} was not imported; placed at the top level`)]);
  // Folio's menus are at most maxMenuDepth levels: a deeper item goes under its ancestor at the last level.
  const placedUnder = parentId === undefined ? undefined : await ancestorWithin(tx, parentId);
  if (placedUnder !== parentId) await store.insertNotes(tx, [noteRow(run, 'warning', item.sourceId, title, `nested deeper than ${maxMenuDepth} levels; placed at the ${maxMenuDepth}th`)]);
  const now = isoNow(run.ctx.clock);
  const row: menuStore.MenuItemRow = {
    id: newId(),
    menu_id: menu.id,
    parent_id: placedUnder ?? null,
    sort_order: item.order,
    type: checked.type,
    reference_collection: checked.reference_collection,
    reference_id: checked.reference_id,
    label: (item.label || checked.title || 'Link').slice(0, 200),
    url: checked.url,
    target: ['_blank', '_self', '_parent', '_top'].includes(item.target ?? '') ? item.target! : null,
    title_attribute: item.titleAttribute?.slice(0, 200) ?? null,
    css_classes: item.cssClasses?.slice(0, 200) ?? null,
    description: item.description?.slice(0, 2000) ?? null,
    created_at: now,
    updated_at: now,
  };
  await menuStore.insertItem(tx, row);
  await store.setImportItemTarget(tx, { source_key: run.sourceKey, kind: 'menu_item', source_id: item.sourceId }, row.id);
  return row.id;
}

/** The item itself when a child of it is within the depth limit, else its ancestor at the last level but one. */
async function ancestorWithin(tx: Transaction, itemId: string): Promise<string> {
  const chain: string[] = [];
  let current: string | null = itemId;
  while (current !== null) {
    chain.unshift(current);
    const row: { parent_id: string | null } | undefined = await tx.kysely.selectFrom('menu_items').select('parent_id').where('id', '=', current).executeTakeFirst();
    current = row?.parent_id ?? null;
  }
  // chain[0] is at level 1; a child of chain[i] is at level i + 2.
  return chain[Math.min(chain.length, maxMenuDepth - 1) - 1]!;
}
