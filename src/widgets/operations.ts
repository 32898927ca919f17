import type { z } from 'zod';
import { contentRead, contentWrite } from '../content/access.ts';
import { isoNow } from '../core/clock.ts';
import { AppError, notFound, validationError, type ValidationIssue } from '../core/errors.ts';
import { newId } from '../core/ids.ts';
import { defineOperation } from '../core/operation.ts';
import { jsonColumn, partialUpdate } from '../core/partial-update.ts';
import type { Db } from '../db/connection.ts';
import { inTransaction } from '../db/dialect.ts';
import * as sectionStore from '../sections/store.ts';
import { widgetTypes, type CreateAreaBody, type CreateWidgetBody, type ReorderBody, type UpdateAreaBody, type UpdateWidgetBody, type Widget, type WidgetArea, type WidgetAreaSummary, type WidgetType } from './schemas.ts';
import * as store from './store.ts';

type Blocks = Extract<Widget, { type: 'content' }>['content'];

function areaFields(row: store.AreaRow) {
  return { name: row.name, label: row.label, description: row.description, createdAt: row.created_at, updatedAt: row.updated_at };
}

/** A widget as the API shows it, with its section or menu as it is now, or `missing` once deleted. */
function toWidget(row: store.ResolvedWidgetRow): Widget {
  const base = { id: row.id, title: row.title, sortOrder: row.sort_order };
  switch (row.type as WidgetType) {
    case 'content':
      return { ...base, type: 'content', content: JSON.parse(row.content!) as Blocks };
    case 'menu': {
      const name = row.menu_name!;
      return { ...base, type: 'menu', menu: row.target_menu_id === null ? { name, missing: true } : { name, label: row.target_menu_label! } };
    }
    case 'section': {
      const slug = row.section_slug!;
      const section =
        row.target_section_id === null
          ? { slug, missing: true as const }
          : { slug, title: row.target_section_title!, content: JSON.parse(row.target_section_content!) as Blocks };
      return { ...base, type: 'section', section };
    }
  }
}

/** The area with its widgets in order, read with what they show in one statement however many there are. */
async function readArea(db: Db, area: store.AreaRow): Promise<WidgetArea> {
  return { ...areaFields(area), widgets: (await store.listResolvedWidgets(db, area.id)).map(toWidget) };
}

async function readWidget(db: Db, areaId: string, id: string): Promise<Widget> {
  const [row] = await store.listResolvedWidgets(db, areaId, id);
  return toWidget(row!);
}

async function requireArea(db: Db, name: string, options: { lock?: boolean } = {}): Promise<store.AreaRow> {
  const area = await store.findArea(db, name, options);
  if (!area) throw notFound(`Widget area ${name}`);
  return area;
}

/** A widget of this area; one of another area is as unknown here as one that does not exist. */
async function requireWidget(db: Db, area: store.AreaRow, id: string): Promise<store.WidgetRow> {
  const widget = await store.findWidget(db, area.id, id);
  if (!widget) throw notFound(`Widget ${id} in ${area.name}`);
  return widget;
}

/** A widget's menu must exist when it is saved; one deleted later reads as missing. */
async function checkMenu(db: Db, name: string): Promise<void> {
  if (!(await store.menuExists(db, name))) throw validationError([{ path: 'menu', message: `No menu ${name}` }]);
}

/** Likewise its section. */
async function checkSection(db: Db, slug: string): Promise<void> {
  if (!(await sectionStore.findSection(db, slug))) throw validationError([{ path: 'section', message: `No section ${slug}` }]);
}

function nameTaken(name: string): AppError {
  return new AppError('CONFLICT', `A widget area named ${name} already exists`, { name });
}

export const listAreas = defineOperation({
  name: 'widgets.listAreas',
  access: contentRead,
  async run(ctx): Promise<{ items: WidgetAreaSummary[] }> {
    return { items: (await store.listAreas(ctx.db)).map((row) => ({ ...areaFields(row), widgetCount: row.widget_count })) };
  },
});

export const getArea = defineOperation({
  name: 'widgets.getArea',
  access: contentRead,
  async run(ctx, input: { name: string }): Promise<{ item: WidgetArea }> {
    return { item: await readArea(ctx.db, await requireArea(ctx.db, input.name)) };
  },
});

export const createArea = defineOperation({
  name: 'widgets.createArea',
  access: contentWrite,
  async run(ctx, input: z.output<typeof CreateAreaBody>): Promise<{ item: WidgetArea }> {
    const now = isoNow(ctx.clock);
    const row: store.AreaRow = { id: newId(), name: input.name, label: input.label, description: input.description ?? null, created_at: now, updated_at: now };
    if (!(await store.insertArea(ctx.db, row))) throw nameTaken(input.name);
    return { item: { ...areaFields(row), widgets: [] } };
  },
});

/** Label and description; the name stays, since themes place the area by it. */
export const updateArea = defineOperation({
  name: 'widgets.updateArea',
  access: contentWrite,
  async run(ctx, input: { name: string } & z.output<typeof UpdateAreaBody>): Promise<{ item: WidgetArea }> {
    return inTransaction(ctx.db, async (db) => {
      // Locked, so the area answered is the one written even while another change to it runs.
      const area = await requireArea(db, input.name, { lock: true });
      const changes = partialUpdate({ label: input.label, description: input.description }, isoNow(ctx.clock));
      await store.updateArea(db, area.id, changes);
      return { item: await readArea(db, { ...area, ...changes }) };
    });
  },
});

/** Removes the area with its widgets. */
export const deleteArea = defineOperation({
  name: 'widgets.deleteArea',
  access: contentWrite,
  async run(ctx, input: { name: string }): Promise<{ success: true }> {
    await inTransaction(ctx.db, async (db) => store.deleteArea(db, (await requireArea(db, input.name)).id));
    return { success: true };
  },
});

/** Adds a widget after the area's last one. */
export const createWidget = defineOperation({
  name: 'widgets.create',
  access: contentWrite,
  async run(ctx, input: { name: string; widget: z.output<typeof CreateWidgetBody> }): Promise<{ item: Widget }> {
    return inTransaction(ctx.db, async (db) => {
      // Locked, so two widgets added at once do not both take the last place.
      const area = await requireArea(db, input.name, { lock: true });
      const { widget } = input;
      if (widget.type === 'menu') await checkMenu(db, widget.menu);
      if (widget.type === 'section') await checkSection(db, widget.section);
      const now = isoNow(ctx.clock);
      const row: store.WidgetRow = {
        id: newId(),
        area_id: area.id,
        sort_order: await store.nextSortOrder(db, area.id),
        type: widget.type,
        title: widget.title ?? null,
        content: widget.type === 'content' ? JSON.stringify(widget.content) : null,
        menu_name: widget.type === 'menu' ? widget.menu : null,
        section_slug: widget.type === 'section' ? widget.section : null,
        created_at: now,
        updated_at: now,
      };
      await store.insertWidget(db, row);
      return { item: await readWidget(db, area.id, row.id) };
    });
  },
});

export const updateWidget = defineOperation({
  name: 'widgets.update',
  access: contentWrite,
  async run(ctx, input: { name: string; id: string; body: z.output<typeof UpdateWidgetBody> }): Promise<{ item: Widget }> {
    return inTransaction(ctx.db, async (db) => {
      const area = await requireArea(db, input.name);
      const widget = await requireWidget(db, area, input.id);
      const { body } = input;
      // Each type's own field is named after it (`content`, `menu`, `section`); the others do not belong.
      const issues = widgetTypes.flatMap((field) => (body[field] !== undefined && field !== widget.type ? [{ path: field, message: `A ${widget.type} widget has no ${field}` }] : []));
      if (issues.length > 0) throw validationError(issues);
      if (body.menu !== undefined) await checkMenu(db, body.menu);
      if (body.section !== undefined) await checkSection(db, body.section);
      await store.updateWidget(db, widget.id, partialUpdate({ title: body.title, content: jsonColumn(body.content), menu_name: body.menu, section_slug: body.section }, isoNow(ctx.clock)));
      return { item: await readWidget(db, area.id, widget.id) };
    });
  },
});

export const deleteWidget = defineOperation({
  name: 'widgets.delete',
  access: contentWrite,
  async run(ctx, input: { name: string; id: string }): Promise<{ success: true }> {
    await inTransaction(ctx.db, async (db) => {
      // Locked: the widgets after it move up a place, which must not cross another write's positions.
      const area = await requireArea(db, input.name, { lock: true });
      await store.deleteWidget(db, await requireWidget(db, area, input.id));
    });
    return { success: true };
  },
});

/** What is wrong with a new order: it must list exactly the area's widgets, each once. */
function orderIssues(areaName: string, current: readonly string[], wanted: readonly string[]): ValidationIssue[] {
  const inArea = new Set(current);
  const listed = new Set<string>();
  const issues: ValidationIssue[] = [];
  wanted.forEach((id, index) => {
    if (!inArea.has(id)) issues.push({ path: `widgetIds.${index}`, message: `No widget ${id} in area ${areaName}` });
    else if (listed.has(id)) issues.push({ path: `widgetIds.${index}`, message: `Widget ${id} is listed more than once` });
    listed.add(id);
  });
  for (const id of current) if (!listed.has(id)) issues.push({ path: 'widgetIds', message: `Widget ${id} of the area is not listed` });
  return issues;
}

/** Puts the area's widgets in the order given; any problem is a 400 and nothing moves. */
export const reorderWidgets = defineOperation({
  name: 'widgets.reorder',
  access: contentWrite,
  async run(ctx, input: { name: string } & z.output<typeof ReorderBody>): Promise<{ item: WidgetArea }> {
    return inTransaction(ctx.db, async (db) => {
      const area = await requireArea(db, input.name, { lock: true });
      const issues = orderIssues(area.name, await store.listWidgetIds(db, area.id), input.widgetIds);
      if (issues.length > 0) throw validationError(issues);
      await store.setWidgetOrder(db, area.id, input.widgetIds);
      return { item: await readArea(db, area) };
    });
  },
});
