import type { z } from 'zod';
import { isoNow } from '../core/clock.ts';
import { AppError } from '../core/errors.ts';
import { newId } from '../core/ids.ts';
import { partialUpdate } from '../core/partial-update.ts';
import { defineOperation } from '../core/operation.ts';
import { contentRead, contentWrite } from '../content/access.ts';
import { viewOf } from '../content/lookup.ts';
import { inTransaction } from '../db/dialect.ts';
import { readMenu, requireMenu, toMenu } from './read.ts';
import type { CreateMenuBody, Menu, MenuOutlineItem, MenuTreeItem, MenuWithItems, UpdateMenuBody } from './schemas.ts';
import * as store from './store.ts';
import * as widgetStore from '../widgets/store.ts';

/** Menus themselves; their items are in item-operations.ts. Read `content:read`, write `content:write` (DECISIONS §2). */

function nameTaken(name: string): AppError {
  return new AppError('CONFLICT', `A menu named ${name} already exists`, { name });
}

export const listMenus = defineOperation({
  name: 'menus.list',
  access: contentRead,
  async run(ctx): Promise<{ items: Menu[] }> {
    return { items: (await store.listMenus(ctx.db)).map(toMenu) };
  },
});

export const getMenu = defineOperation({
  name: 'menus.get',
  access: contentRead,
  async run(ctx, input: { name: string }): Promise<{ item: MenuWithItems }> {
    return { item: await readMenu(ctx.db, await requireMenu(ctx.db, input.name), viewOf(ctx)) };
  },
});

/** The same read as `getMenu`, its items flattened depth-first (each after its parent): what `menu_get` gives. */
export const getMenuOutline = defineOperation({
  name: 'menus.outline',
  access: contentRead,
  async run(ctx, input: { name: string }): Promise<{ item: Menu & { items: MenuOutlineItem[] } }> {
    const { items, ...menu } = await readMenu(ctx.db, await requireMenu(ctx.db, input.name), viewOf(ctx));
    return { item: { ...menu, items: items.flatMap(outline) } };
  },
});

function outline(item: MenuTreeItem): MenuOutlineItem[] {
  const entry: MenuOutlineItem = {
    id: item.id,
    label: item.label,
    url: item.url,
    type: item.type,
    ...(item.parentId !== null ? { parentId: item.parentId } : {}),
    ...(item.slug !== null ? { slug: item.slug } : {}),
    ...(item.missing ? { missing: true as const } : {}),
  };
  return [entry, ...item.children.flatMap(outline)];
}

export const createMenu = defineOperation({
  name: 'menus.create',
  access: contentWrite,
  async run(ctx, input: z.output<typeof CreateMenuBody>): Promise<{ item: Menu }> {
    const now = isoNow(ctx.clock);
    const row: store.MenuRow = { id: newId(), name: input.name, label: input.label, created_at: now, updated_at: now };
    if (!(await store.insertMenu(ctx.db, row))) throw nameTaken(input.name);
    return { item: toMenu(row) };
  },
});

/** Label and name; items, and widgets showing the menu, stay with it under its new name. */
export const updateMenu = defineOperation({
  name: 'menus.update',
  access: contentWrite,
  async run(ctx, input: { name: string; body: z.output<typeof UpdateMenuBody> }): Promise<{ item: Menu }> {
    return inTransaction(ctx.db, async (db) => {
      const menu = await requireMenu(db, input.name, { lock: true });
      const { body } = input;
      const changes = partialUpdate({ name: body.name, label: body.label }, isoNow(ctx.clock));
      if (!(await store.updateMenu(db, menu.id, changes))) throw nameTaken(body.name!);
      if (body.name !== undefined && body.name !== menu.name) await widgetStore.renameMenuReferences(db, menu.name, body.name);
      return { item: toMenu({ ...menu, ...changes }) };
    });
  },
});

export const deleteMenu = defineOperation({
  name: 'menus.delete',
  access: contentWrite,
  async run(ctx, input: { name: string }): Promise<{ success: true }> {
    await inTransaction(ctx.db, async (db) => store.deleteMenu(db, (await requireMenu(db, input.name, { lock: true })).id));
    return { success: true };
  },
});
