import { z } from 'zod';
import { Label, machineName, nameParam } from '../core/schemas.ts';
import { PortableTextBlocks, PortableTextInput } from '../content/portable-text-schema.ts';

/** What a widget shows: its own rich text, a menu, or a section. */
export const widgetTypes = ['content', 'menu', 'section'] as const;
export type WidgetType = (typeof widgetTypes)[number];

const AreaName = machineName('Widget area name, e.g. sidebar');
const NameParam = nameParam('Widget area name');
const Description = z.string().max(5000).nullable();
const WidgetTitle = z.string().trim().min(1).max(200).nullable().describe('Heading shown above the widget; null for none');
const MenuName = z.string().min(1).max(200).describe('Name of an existing menu');
const SectionSlug = z.string().min(1).max(200).describe('Slug of an existing section');
const WidgetId = z.string().min(1).max(64);

export const AreaParams = z.object({ name: NameParam });
export const WidgetParams = z.object({ name: NameParam, id: WidgetId.describe('Widget id') });

export const CreateAreaBody = z.strictObject({
  name: AreaName,
  label: Label.describe('Display name, e.g. Sidebar'),
  description: Description.optional(),
});

export const UpdateAreaBody = z.strictObject({
  label: Label.optional(),
  description: Description.optional(),
});

/** Each type takes its own field, and only that one: a `menu` widget given `content` is a 400 naming it. */
export const CreateWidgetBody = z.discriminatedUnion(
  'type',
  [
    z.strictObject({ type: z.literal('content'), title: WidgetTitle.optional(), content: PortableTextInput }),
    z.strictObject({ type: z.literal('menu'), title: WidgetTitle.optional(), menu: MenuName }),
    z.strictObject({ type: z.literal('section'), title: WidgetTitle.optional(), section: SectionSlug }),
  ],
  { error: `Must be one of: ${widgetTypes.join(', ')}` },
);

/** The title, and the field of the widget's own type; the type itself stays. */
export const UpdateWidgetBody = z.strictObject({
  title: WidgetTitle.optional(),
  content: PortableTextInput.optional().describe('content widgets: Portable Text blocks, or a Markdown string'),
  menu: MenuName.optional().describe('menu widgets: name of an existing menu'),
  section: SectionSlug.optional().describe('section widgets: slug of an existing section'),
});

export const ReorderBody = z.strictObject({
  widgetIds: z.array(WidgetId).max(1000).describe('Every widget of the area, each once, in the new order'),
});

const widgetBase = {
  id: z.string(),
  title: z.string().nullable(),
  sortOrder: z.number().describe('Position in the area, from 0'),
};

/** A reference whose target was deleted since: the name kept, so an editor sees what was there. */
const missing = { missing: z.literal(true).describe('The target was deleted since the widget was saved') };

export const WidgetSchema = z
  .discriminatedUnion('type', [
    z.object({ ...widgetBase, type: z.literal('content'), content: PortableTextBlocks }),
    z.object({
      ...widgetBase,
      type: z.literal('menu'),
      menu: z.union([z.object({ name: z.string(), label: z.string() }), z.object({ name: z.string(), ...missing })]).describe('The menu, as it is now'),
    }),
    z.object({
      ...widgetBase,
      type: z.literal('section'),
      section: z
        .union([z.object({ slug: z.string(), title: z.string(), content: PortableTextBlocks }), z.object({ slug: z.string(), ...missing })])
        .describe('The section, as it is now'),
    }),
  ])
  .meta({ id: 'Widget' });

export type Widget = z.infer<typeof WidgetSchema>;

const areaFields = {
  name: z.string(),
  label: z.string(),
  description: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
};

export const WidgetAreaSchema = z.object({ ...areaFields, widgets: z.array(WidgetSchema).describe('In order') }).meta({ id: 'WidgetArea' });
export const WidgetAreaSummarySchema = z
  .object({ ...areaFields, widgetCount: z.number().describe('How many widgets the area has') })
  .meta({ id: 'WidgetAreaSummary' });

export type WidgetArea = z.infer<typeof WidgetAreaSchema>;
export type WidgetAreaSummary = z.infer<typeof WidgetAreaSummarySchema>;

export const AreaItemResponse = z.object({ item: WidgetAreaSchema });
export const AreaListResponse = z.object({ items: z.array(WidgetAreaSummarySchema) });
export const WidgetItemResponse = z.object({ item: WidgetSchema });
