import { z } from 'zod';
import { Label, machineName, nameParam } from '../core/schemas.ts';
import { maxMenuDepth, maxMenuItems } from './tree.ts';

const MenuName = machineName('Menu name, e.g. main');
const NameParam = nameParam('Menu name');
const ItemId = z.string().min(1).max(64);
const SortOrder = z.number().int().min(0).max(1_000_000).describe('Place among its siblings, lowest first');

/**
 * What the item links to: a collection slug (`page`, `post`…, WordPress's post type) for an entry,
 * `taxonomy` for a term, `custom` for an address (docs/decisions/0018).
 */
const ItemType = z
  .string()
  .min(1)
  .max(63)
  .regex(/^[a-z][a-z0-9_]*$/, 'Must be "page", "post", a collection slug, "taxonomy" or "custom"')
  .describe('What the item links to, as WordPress names it: "page" or "post" for an entry of the collection referenceCollection names, or that collection\'s own slug; "taxonomy" for a term; "custom" for an address');

/** An address outside the site (http or https) or a path on it; `//host` would be another site. */
function isLinkUrl(value: string): boolean {
  if (/[\s\p{Cc}]/u.test(value)) return false;
  if (value.startsWith('/')) return !value.startsWith('//') && !value.startsWith('/\\');
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

const LinkUrl = z
  .string()
  .max(2000)
  .refine(isLinkUrl, 'Must be an absolute http(s) URL or a path on the site starting with "/"')
  .describe('Custom links: an absolute http(s) URL or a site path starting with "/"');
const LinkTarget = z.enum(['_blank', '_self', '_parent', '_top']).describe('Where the link opens');
const TitleAttribute = z.string().max(200);
const CssClasses = z
  .string()
  .max(200)
  .regex(/^[A-Za-z0-9_ -]*$/, 'Class names (letters, digits, "_", "-") separated by spaces')
  .describe('CSS class names, separated by spaces');
const Description = z.string().max(2000);

export const MenuParams = z.object({ name: NameParam });
export const MenuItemParams = z.object({ name: NameParam, id: ItemId.describe('Menu item id') });

export const CreateMenuBody = z.strictObject({
  name: MenuName,
  label: Label.describe('Display name, e.g. Main navigation'),
});

export const UpdateMenuBody = z.strictObject({
  name: MenuName.optional().describe('A new name: renames the menu'),
  label: Label.optional(),
});

/** The fields of an item both writes take; which apply depends on `type` (checked by the operation). */
const itemFields = {
  referenceCollection: z.string().min(1).max(63).nullable().describe('Entries: the collection slug (the type, when the type is the slug; any collection for page and post); terms: the taxonomy name'),
  referenceId: z.string().min(1).max(200).nullable().describe('Entries: an entry id or slug; terms: a term id or slug'),
  url: LinkUrl.nullable(),
  parentId: ItemId.nullable().describe('An item of the same menu; null: top level'),
  target: LinkTarget.nullable(),
  titleAttribute: TitleAttribute.nullable(),
  cssClasses: CssClasses.nullable(),
  description: Description.nullable(),
};

export const CreateMenuItemBody = z.strictObject({
  type: ItemType,
  label: Label.optional().describe("Required for custom links; for entries and terms, defaults to the target's title"),
  referenceCollection: itemFields.referenceCollection.optional(),
  referenceId: itemFields.referenceId.optional(),
  url: itemFields.url.optional(),
  parentId: itemFields.parentId.optional(),
  sortOrder: SortOrder.optional().describe('Default: last among its siblings'),
  target: itemFields.target.optional(),
  titleAttribute: itemFields.titleAttribute.optional(),
  cssClasses: itemFields.cssClasses.optional(),
  description: itemFields.description.optional(),
});

export const UpdateMenuItemBody = z.strictObject({
  type: ItemType.optional().describe('A new kind of link: give its fields too (those of the old kind are dropped)'),
  label: Label.optional(),
  referenceCollection: itemFields.referenceCollection.optional(),
  referenceId: itemFields.referenceId.optional(),
  url: itemFields.url.optional(),
  parentId: itemFields.parentId.optional().describe('A new parent (not the item or one of its descendants); null: top level'),
  sortOrder: SortOrder.optional().describe('Default when the parent changes: last among its new siblings'),
  target: itemFields.target.optional(),
  titleAttribute: itemFields.titleAttribute.optional(),
  cssClasses: itemFields.cssClasses.optional(),
  description: itemFields.description.optional(),
});

export const ReorderMenuBody = z.strictObject({
  items: z
    .array(z.strictObject({ id: ItemId, parentId: ItemId.nullable(), sortOrder: SortOrder }))
    .max(maxMenuItems)
    .describe(`Items to place; items not listed keep their place. At most ${maxMenuDepth} levels deep`),
});

export const MenuSchema = z
  .object({
    name: z.string(),
    label: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: 'Menu' });

const menuItemShape = {
  id: z.string(),
  parentId: z.string().nullable().describe('For an item shown under an ancestor because its parent is hidden: that ancestor'),
  sortOrder: z.number(),
  type: z.string(),
  label: z.string(),
  url: z.string().nullable().describe("Custom links: their address; entries and terms: from the target's current slug and its URL pattern, null without one"),
  referenceCollection: z.string().nullable(),
  referenceId: z.string().nullable().describe('The entry or term id'),
  slug: z.string().nullable().describe("The target's current slug; null for custom links and missing targets"),
  status: z.enum(['draft', 'published', 'scheduled', 'trashed']).optional().describe("Entries, for editors: the target's status"),
  missing: z.literal(true).optional().describe('The target (entry, term, collection or taxonomy) no longer exists'),
  target: LinkTarget.nullable(),
  titleAttribute: z.string().nullable(),
  cssClasses: z.string().nullable(),
  description: z.string().nullable(),
};

export const MenuItemSchema = z.object(menuItemShape).meta({ id: 'MenuItem' });

export type MenuItem = z.infer<typeof MenuItemSchema>;
export type MenuTreeItem = MenuItem & { children: MenuTreeItem[] };

export const MenuTreeItemSchema: z.ZodType<MenuTreeItem> = z
  .object({
    ...menuItemShape,
    get children() {
      return z.array(MenuTreeItemSchema).describe('Its items, in order');
    },
  })
  .meta({ id: 'MenuTreeItem' });

export const MenuWithItemsSchema = z.object({ ...MenuSchema.shape, items: z.array(MenuTreeItemSchema).describe('Top-level items in order, each with its children') });

export type Menu = z.infer<typeof MenuSchema>;
export type MenuWithItems = Menu & { items: MenuTreeItem[] };

/** `menu_get`: the items depth-first, each after its parent (mcp.md: label, URL, type, optional parent). */
export interface MenuOutlineItem {
  id: string;
  label: string;
  url: string | null;
  type: string;
  parentId?: string;
  slug?: string;
  missing?: true;
}

export const MenuItemResponse = z.object({ item: MenuSchema });
export const MenuListResponse = z.object({ items: z.array(MenuSchema) });
export const MenuWithItemsResponse = z.object({ item: MenuWithItemsSchema });
export const MenuItemItemResponse = z.object({ item: MenuItemSchema });
