import type { Kysely } from 'kysely';

/**
 * Site structure around the content: menus and their items (src/menus/), sections, the reusable blocks
 * (src/sections/), and widget areas with their widgets (src/widgets/). A collection may also declare the
 * URL pattern its entries are served at (`/blog/{slug}`), and a taxonomy its terms (`/category/{slug}`),
 * which menu items follow.
 *
 * References to entries, terms, menus and sections are kept by name or id and resolved when read, so a
 * target deleted later shows as missing rather than failing the read or taking the item with it.
 */
export async function up(db: Kysely<any>): Promise<void> { // eslint-disable-line @typescript-eslint/no-explicit-any -- the schema as it was then
  await db.schema.alterTable('collections').addColumn('url_pattern', 'text').execute();
  await db.schema.alterTable('taxonomies').addColumn('url_pattern', 'text').execute();
  // A content list filtered by a term checks each entry it walks in this index: with the term in it,
  // that check reads the index alone, never the row (decisions/0017).
  await db.schema.dropIndex('entry_terms_entry').execute();
  await db.schema.createIndex('entry_terms_entry').on('entry_terms').columns(['entry_id', 'taxonomy_id', 'term_id']).execute();

  await db.schema
    .createTable('menus')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('name', 'text', (column) => column.notNull().unique())
    .addColumn('label', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema
    .createTable('menu_items')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('menu_id', 'text', (column) => column.notNull().references('menus.id').onDelete('cascade'))
    .addColumn('parent_id', 'text', (column) => column.references('menu_items.id'))
    .addColumn('sort_order', 'integer', (column) => column.notNull())
    // `page`, `post` or another entry type, `taxonomy`, `custom`.
    .addColumn('type', 'text', (column) => column.notNull())
    // An entry's collection slug or a term's taxonomy name; null for custom links.
    .addColumn('reference_collection', 'text')
    // An entry id or a term id; null for custom links.
    .addColumn('reference_id', 'text')
    .addColumn('label', 'text', (column) => column.notNull())
    // Custom links only: the address outside (or inside) the site.
    .addColumn('url', 'text')
    // What WordPress keeps on a nav item too: link target, title attribute, CSS classes, description.
    .addColumn('target', 'text')
    .addColumn('title_attribute', 'text')
    .addColumn('css_classes', 'text')
    .addColumn('description', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('menu_items_menu_order').on('menu_items').columns(['menu_id', 'sort_order']).execute();
  await db.schema.createIndex('menu_items_parent').on('menu_items').column('parent_id').execute();
  await db.schema.createIndex('menu_items_reference').on('menu_items').column('reference_id').execute();

  await db.schema
    .createTable('sections')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('slug', 'text', (column) => column.notNull().unique())
    .addColumn('title', 'text', (column) => column.notNull())
    // JSON array of strings.
    .addColumn('keywords', 'text', (column) => column.notNull())
    // JSON array of Portable Text blocks.
    .addColumn('content', 'text', (column) => column.notNull())
    // `user`, `theme` or `import`.
    .addColumn('source', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('sections_source').on('sections').columns(['source', 'slug']).execute();

  await db.schema
    .createTable('widget_areas')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('name', 'text', (column) => column.notNull().unique())
    .addColumn('label', 'text', (column) => column.notNull())
    .addColumn('description', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema
    .createTable('widgets')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('area_id', 'text', (column) => column.notNull().references('widget_areas.id').onDelete('cascade'))
    .addColumn('sort_order', 'integer', (column) => column.notNull())
    // `content`, `menu` or `section`.
    .addColumn('type', 'text', (column) => column.notNull())
    .addColumn('title', 'text')
    // `content` widgets: JSON array of Portable Text blocks.
    .addColumn('content', 'text')
    // `menu` widgets: the menu's name; `section` widgets: the section's slug.
    .addColumn('menu_name', 'text')
    .addColumn('section_slug', 'text')
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('updated_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('widgets_area_order').on('widgets').columns(['area_id', 'sort_order']).execute();
}
