import { z } from 'zod';
import { defineTool, limitArgument, type Tool, type ToolSpec } from '../mcp/tool.ts';
import { compareEntry, discardDraft, duplicateEntry, listTranslations, permanentlyDeleteEntry, publishEntry, restoreEntry, scheduleEntry, unpublishEntry } from './lifecycle.ts';
import { createEntry, getEntry, listEntries, listTrash, trashEntry, updateEntry } from './operations.ts';
import { CollectionParams, CreateEntryBody, EntryParams, GetEntryQuery, ListEntriesQuery, ListTrashQuery, ScheduleBody, UpdateEntryBody } from './schemas.ts';

const entryArgs = z.strictObject(EntryParams.shape);

/** A tool taking only `collection` and `id`: the actions on one entry. */
function entryTool<Output>(spec: Omit<ToolSpec<typeof entryArgs, z.output<typeof entryArgs>, Output>, 'input' | 'toInput'>): Tool {
  return defineTool({ ...spec, input: entryArgs });
}

/** The fifteen content tools of mcp.md; their arguments are the REST route's path, query and body in one object. */
export const contentTools = [
  defineTool({
    name: 'content_list',
    title: 'List content',
    description: 'Lists the entries of a collection, newest first by default, one page at a time (pass nextCursor back as cursor).',
    operation: listEntries,
    input: z.strictObject({ ...CollectionParams.shape, ...ListEntriesQuery.shape, limit: limitArgument(100, 50) }),
    flag: 'read-only',
  }),
  defineTool({
    name: 'content_get',
    title: 'Get content',
    description: 'Returns an entry by id or slug with all field values, metadata and a _rev token for content_update.',
    operation: getEntry,
    input: z.strictObject({ ...EntryParams.shape, ...GetEntryQuery.shape }),
    flag: 'read-only',
  }),
  defineTool({
    name: 'content_create',
    title: 'Create content',
    description: 'Creates an entry; `data` holds field values matching the collection schema. Status defaults to draft.',
    operation: createEntry,
    input: z.strictObject({ ...CollectionParams.shape, ...CreateEntryBody.shape }),
  }),
  defineTool({
    name: 'content_update',
    title: 'Update content',
    description: 'Changes an entry; fields left out of `data` stay unchanged. Pass `_rev` from content_get to detect conflicting edits.',
    operation: updateEntry,
    input: z.strictObject({ ...EntryParams.shape, ...UpdateEntryBody.shape }),
  }),
  entryTool({ name: 'content_delete', title: 'Move content to trash', description: 'Moves an entry to the trash (soft delete).', operation: trashEntry, flag: 'destructive' }),
  entryTool({ name: 'content_restore', title: 'Restore content from trash', description: 'Takes an entry out of the trash.', operation: restoreEntry }),
  entryTool({
    name: 'content_permanent_delete',
    title: 'Delete content permanently',
    description: 'Deletes an entry that is already in the trash, irreversibly.',
    operation: permanentlyDeleteEntry,
    flag: 'destructive',
  }),
  entryTool({
    name: 'content_publish',
    title: 'Publish content',
    description: 'Publishes the current draft of an entry; later edits stay drafts until published again.',
    operation: publishEntry,
  }),
  entryTool({ name: 'content_unpublish', title: 'Unpublish content', description: 'Takes an entry off the live site; its content is kept as a draft.', operation: unpublishEntry }),
  defineTool({
    name: 'content_schedule',
    title: 'Schedule content',
    description: 'Schedules an entry to be published automatically at `scheduledAt` (ISO 8601 date-time).',
    operation: scheduleEntry,
    input: z.strictObject({ ...EntryParams.shape, ...ScheduleBody.shape }),
  }),
  entryTool({
    name: 'content_compare',
    title: 'Compare draft and published',
    description: 'Returns the published and the draft values of an entry and whether they differ.',
    operation: compareEntry,
    flag: 'read-only',
  }),
  entryTool({
    name: 'content_discard_draft',
    title: 'Discard draft',
    description: 'Throws away the current draft of a published entry, going back to the last published version.',
    operation: discardDraft,
    flag: 'destructive',
  }),
  defineTool({
    name: 'content_list_trashed',
    title: 'List trashed content',
    description: 'Lists the entries of a collection that are in the trash, one page at a time.',
    operation: listTrash,
    input: z.strictObject({ ...CollectionParams.shape, ...ListTrashQuery.shape, limit: limitArgument(100, 50) }),
    flag: 'read-only',
  }),
  entryTool({
    name: 'content_duplicate',
    title: 'Duplicate content',
    description: 'Copies an entry into a new draft; the title gets a copy marker and the slug is generated.',
    operation: duplicateEntry,
  }),
  entryTool({
    name: 'content_translations',
    title: 'List translations',
    description: "Returns an entry's translation group with a summary of each locale version (with i18n enabled).",
    operation: listTranslations,
    flag: 'read-only',
  }),
];
