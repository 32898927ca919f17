import { z } from 'zod';
import { defineTool } from '../mcp/tool.ts';
import { getMenuOutline, listMenus } from './operations.ts';

/** The two menu tools of mcp.md, over the same operations as REST. */
export const menuTools = [
  defineTool({
    name: 'menu_list',
    title: 'List menus',
    description: 'Lists the menus by name: name, label and timestamps.',
    operation: listMenus,
    input: z.strictObject({}),
    flag: 'read-only',
  }),
  defineTool({
    name: 'menu_get',
    title: 'Get a menu',
    description:
      'Returns a menu with its items in order, depth-first (each item right after its parent): id, label, url, type (a collection slug for an entry, "taxonomy" for a term, "custom" for a link), parentId for nested items, the target\'s slug, and missing: true when the target no longer exists.',
    operation: getMenuOutline,
    input: z.strictObject({ name: z.string().min(1).max(200).describe('Menu name, e.g. main') }),
    flag: 'read-only',
  }),
];
