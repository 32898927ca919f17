import type { Context } from '../src/core/context.ts';
import { runOperation } from '../src/core/operation.ts';
import { createEntry } from '../src/content/operations.ts';
import { createMenuItem } from '../src/menus/item-operations.ts';
import { createMenu } from '../src/menus/operations.ts';
import { createCollection, createField } from '../src/schema/operations.ts';

/**
 * Issue 10's menu figure: `GET /menus/:name` of a 150-item menu in three levels whose items link to
 * entries of two collections, each with a URL pattern, so every read resolves 150 links.
 */

export const benchMenuName = 'bench-main';

/** 10 top-level items, 4 children under each, 10 grandchildren under each top-level item. */
const shape = { top: 10, children: 4, grandchildrenPerTop: 10 };
export const benchMenuItems = shape.top * (1 + shape.children + shape.grandchildrenPerTop);

const collections = [
  { slug: 'bench_pages', urlPattern: '/{slug}' },
  { slug: 'bench_posts', urlPattern: '/blog/{slug}' },
];
const entriesPerCollection = 30;

export async function seedBenchMenu(ctx: Context): Promise<void> {
  const targets: { collection: string; id: string }[] = [];
  for (const { slug, urlPattern } of collections) {
    await runOperation(createCollection, ctx, () => ({ slug, label: slug, urlPattern }));
    await runOperation(createField, ctx, () => ({ collection: slug, slug: 'title', label: 'Title', type: 'string' as const }));
    for (let n = 0; n < entriesPerCollection; n += 1) {
      const { item } = await runOperation(createEntry, ctx, () => ({ collection: slug, data: { title: `${slug} ${n}` }, status: 'published' as const }));
      targets.push({ collection: slug, id: item.id });
    }
  }
  await runOperation(createMenu, ctx, () => ({ name: benchMenuName, label: 'Bench navigation' }));
  let count = 0;
  const add = async (parentId: string | null) => {
    // Alternating collections, so both entry tables are read on every request.
    const target = targets[(count % 2) * entriesPerCollection + (Math.floor(count / 2) % entriesPerCollection)]!;
    count += 1;
    const { item } = await runOperation(createMenuItem, ctx, () => ({ name: benchMenuName, type: target.collection, referenceCollection: target.collection, referenceId: target.id, parentId }));
    return item.id;
  };
  for (let top = 0; top < shape.top; top += 1) {
    const topId = await add(null);
    const childIds: string[] = [];
    for (let child = 0; child < shape.children; child += 1) childIds.push(await add(topId));
    for (let grandchild = 0; grandchild < shape.grandchildrenPerTop; grandchild += 1) await add(childIds[grandchild % shape.children]!);
  }
}
