import { DeletedResponse } from '../core/schemas.ts';
import { defineRoute, paramsWithBody } from '../http/route.ts';
import { createArea, createWidget, deleteArea, deleteWidget, getArea, listAreas, reorderWidgets, updateArea, updateWidget } from './operations.ts';
import {
  AreaItemResponse,
  AreaListResponse,
  AreaParams,
  CreateAreaBody,
  CreateWidgetBody,
  ReorderBody,
  UpdateAreaBody,
  UpdateWidgetBody,
  WidgetItemResponse,
  WidgetParams,
} from './schemas.ts';

const tag = 'Widget areas';

export const widgetRoutes = [
  defineRoute({ method: 'get', path: '/widget-areas', tag, summary: 'Widget areas by name, each with its widget count', operation: listAreas, response: AreaListResponse }),
  defineRoute({ method: 'post', path: '/widget-areas', tag, summary: 'Create a widget area', operation: createArea, body: CreateAreaBody, status: 201, response: AreaItemResponse }),
  defineRoute({
    method: 'get',
    path: '/widget-areas/:name',
    tag,
    summary: 'A widget area with its widgets in order, sections and menus filled in',
    operation: getArea,
    params: AreaParams,
    response: AreaItemResponse,
  }),
  defineRoute({ method: 'put', path: '/widget-areas/:name', tag, summary: 'Change a widget area (label, description)', operation: updateArea, params: AreaParams, body: UpdateAreaBody, response: AreaItemResponse }),
  defineRoute({ method: 'delete', path: '/widget-areas/:name', tag, summary: 'Delete a widget area and its widgets', operation: deleteArea, params: AreaParams, response: DeletedResponse }),
  defineRoute({
    method: 'post',
    path: '/widget-areas/:name/widgets',
    tag,
    summary: 'Add a widget (content, menu or section) after the last one',
    operation: createWidget,
    params: AreaParams,
    body: CreateWidgetBody,
    input: ({ params, body }) => ({ name: params.name, widget: body }),
    status: 201,
    response: WidgetItemResponse,
  }),
  defineRoute({
    method: 'put',
    path: '/widget-areas/:name/widgets/:id',
    tag,
    summary: "Change a widget's title or what it shows",
    operation: updateWidget,
    params: WidgetParams,
    body: UpdateWidgetBody,
    input: paramsWithBody,
    response: WidgetItemResponse,
  }),
  defineRoute({ method: 'delete', path: '/widget-areas/:name/widgets/:id', tag, summary: 'Remove a widget', operation: deleteWidget, params: WidgetParams, response: DeletedResponse }),
  defineRoute({
    method: 'post',
    path: '/widget-areas/:name/reorder',
    tag,
    summary: "Put the area's widgets in a new order (all of them, each once)",
    operation: reorderWidgets,
    params: AreaParams,
    body: ReorderBody,
    response: AreaItemResponse,
  }),
];
