import { DeletedResponse } from '../core/schemas.ts';
import { defineRoute, paramsWithBody } from '../http/route.ts';
import { createMenuItem, deleteMenuItem, reorderMenuItems, updateMenuItem } from './item-operations.ts';
import { createMenu, deleteMenu, getMenu, listMenus, updateMenu } from './operations.ts';
import {
  CreateMenuBody,
  CreateMenuItemBody,
  MenuItemItemResponse,
  MenuItemParams,
  MenuItemResponse,
  MenuListResponse,
  MenuParams,
  MenuWithItemsResponse,
  ReorderMenuBody,
  UpdateMenuBody,
  UpdateMenuItemBody,
} from './schemas.ts';

const tag = 'Menus';
const menuPath = '/menus/:name';
const itemPath = `${menuPath}/items/:id`;

export const menuRoutes = [
  defineRoute({ method: 'get', path: '/menus', tag, summary: 'Menus by name', operation: listMenus, response: MenuListResponse }),
  defineRoute({ method: 'post', path: '/menus', tag, summary: 'Create a menu', operation: createMenu, body: CreateMenuBody, status: 201, response: MenuItemResponse }),
  defineRoute({ method: 'get', path: menuPath, tag, summary: 'A menu with its items, nested and in order', operation: getMenu, params: MenuParams, response: MenuWithItemsResponse }),
  defineRoute({
    method: 'put',
    path: menuPath,
    tag,
    summary: 'Change a menu’s label, or rename it',
    operation: updateMenu,
    params: MenuParams,
    body: UpdateMenuBody,
    input: paramsWithBody,
    response: MenuItemResponse,
  }),
  defineRoute({ method: 'delete', path: menuPath, tag, summary: 'Delete a menu and its items', operation: deleteMenu, params: MenuParams, response: DeletedResponse }),
  defineRoute({
    method: 'post',
    path: `${menuPath}/items`,
    tag,
    summary: 'Add an item: a link to an entry, a term, or any address',
    operation: createMenuItem,
    params: MenuParams,
    body: CreateMenuItemBody,
    status: 201,
    response: MenuItemItemResponse,
  }),
  defineRoute({
    method: 'put',
    path: itemPath,
    tag,
    summary: 'Change an item (its link, label, parent, order or attributes)',
    operation: updateMenuItem,
    params: MenuItemParams,
    body: UpdateMenuItemBody,
    input: paramsWithBody,
    response: MenuItemItemResponse,
  }),
  defineRoute({ method: 'delete', path: itemPath, tag, summary: 'Delete an item; its children move up to its parent', operation: deleteMenuItem, params: MenuItemParams, response: DeletedResponse }),
  defineRoute({
    method: 'post',
    path: `${menuPath}/reorder`,
    tag,
    summary: 'Move items: new parents and orders, all or nothing',
    operation: reorderMenuItems,
    params: MenuParams,
    body: ReorderMenuBody,
    response: MenuWithItemsResponse,
  }),
];
