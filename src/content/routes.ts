import { DeletedResponse } from '../core/schemas.ts';
import type { z } from 'zod';
import type { Operation } from '../core/operation.ts';
import type { Entry } from './entries.ts';
import { defineRoute } from '../http/route.ts';
import { compareEntry, discardDraft, duplicateEntry, listTranslations, permanentlyDeleteEntry, publishEntry, restoreEntry, scheduleEntry, unpublishEntry, unscheduleEntry } from './lifecycle.ts';
import { listAuthors } from './authors.ts';
import { bulkContent } from './bulk.ts';
import { listContentCollections } from './collections.ts';
import { createEntry, getEntry, listEntries, listTrash, trashEntry, updateEntry } from './operations.ts';
import {
  AuthorsQuery,
  AuthorsResponse,
  BulkBody,
  BulkResponse,
  CollectionParams,
  CompareResponse,
  ContentCollectionsQuery,
  ContentCollectionsResponse,
  CreateEntryBody,
  EntryItemResponse,
  EntryListResponse,
  EntryParams,
  GetEntryQuery,
  ListEntriesQuery,
  ListTrashQuery,
  ScheduleBody,
  TranslationsResponse,
  UpdateEntryBody,
} from './schemas.ts';

const tag = 'Content';
const entryPath = '/content/:collection/:id';

/** A POST on an entry that changes its state and answers with the entry (publish, restore…). */
function entryAction(action: string, summary: string, operation: Operation<z.output<typeof EntryParams>, { item: Entry }>) {
  return defineRoute({ method: 'post', path: `${entryPath}/${action}`, tag, summary, operation, params: EntryParams, response: EntryItemResponse });
}

export const contentRoutes = [
  defineRoute({
    method: 'get',
    path: '/content',
    tag,
    summary: 'The collections with their fields, for those who write entries; counts=true counts their entries by status',
    operation: listContentCollections,
    query: ContentCollectionsQuery,
    response: ContentCollectionsResponse,
  }),
  // Top-level, not under /content/:collection, so no entry slug is taken by it.
  defineRoute({
    method: 'get',
    path: '/authors',
    tag,
    summary: "The users who created a collection's entries (id and name), by name: who its list can be filtered by (author=)",
    operation: listAuthors,
    query: AuthorsQuery,
    response: AuthorsResponse,
  }),
  // Before `/:id`, so `trash` is never taken for an entry slug (which is why `trash` is a reserved slug).
  defineRoute({
    method: 'get',
    path: '/content/:collection/trash',
    tag,
    summary: 'Entries in the trash, most recently deleted first',
    operation: listTrash,
    params: CollectionParams,
    query: ListTrashQuery,
    response: EntryListResponse,
  }),
  defineRoute({
    method: 'get',
    path: '/content/:collection',
    tag,
    summary: 'List entries',
    operation: listEntries,
    params: CollectionParams,
    query: ListEntriesQuery,
    response: EntryListResponse,
  }),
  defineRoute({
    method: 'post',
    path: '/content/:collection/bulk',
    tag,
    summary: 'One action (publish, unpublish, trash, restore, delete for good) on up to 100 entries, answered per entry',
    operation: bulkContent,
    params: CollectionParams,
    body: BulkBody,
    response: BulkResponse,
  }),
  defineRoute({ method: 'get', path: entryPath, tag, summary: 'Get an entry by id or slug', operation: getEntry, params: EntryParams, query: GetEntryQuery, response: EntryItemResponse }),
  defineRoute({
    method: 'post',
    path: '/content/:collection',
    tag,
    summary: 'Create an entry (draft unless status is published)',
    operation: createEntry,
    params: CollectionParams,
    body: CreateEntryBody,
    response: EntryItemResponse,
    status: 201,
  }),
  defineRoute({
    method: 'put',
    path: entryPath,
    tag,
    summary: 'Change an entry: only the given fields change; _rev guards against lost updates',
    operation: updateEntry,
    params: EntryParams,
    body: UpdateEntryBody,
    response: EntryItemResponse,
  }),
  defineRoute({ method: 'delete', path: entryPath, tag, summary: 'Move an entry to the trash', operation: trashEntry, params: EntryParams, response: DeletedResponse }),
  entryAction('publish', 'Publish the current draft', publishEntry),
  entryAction('unpublish', 'Take an entry off the live site; its content is kept', unpublishEntry),
  defineRoute({
    method: 'post',
    path: `${entryPath}/schedule`,
    tag,
    summary: 'Publish automatically at scheduledAt',
    operation: scheduleEntry,
    params: EntryParams,
    body: ScheduleBody,
    response: EntryItemResponse,
  }),
  defineRoute({ method: 'delete', path: `${entryPath}/schedule`, tag, summary: 'Cancel a scheduled publication', operation: unscheduleEntry, params: EntryParams, response: EntryItemResponse }),
  entryAction('restore', 'Take an entry out of the trash', restoreEntry),
  entryAction('discard-draft', 'Drop the staged draft and go back to the published version', discardDraft),
  defineRoute({
    method: 'post',
    path: `${entryPath}/duplicate`,
    tag,
    summary: 'Copy an entry into a new draft',
    operation: duplicateEntry,
    params: EntryParams,
    response: EntryItemResponse,
    status: 201,
  }),
  defineRoute({
    method: 'delete',
    path: `${entryPath}/permanent`,
    tag,
    summary: 'Delete an entry for good; it must be in the trash',
    operation: permanentlyDeleteEntry,
    params: EntryParams,
    response: DeletedResponse,
  }),
  defineRoute({ method: 'get', path: `${entryPath}/compare`, tag, summary: 'The published and draft values side by side', operation: compareEntry, params: EntryParams, response: CompareResponse }),
  defineRoute({
    method: 'get',
    path: `${entryPath}/translations`,
    tag,
    summary: "The entry's translation group",
    operation: listTranslations,
    params: EntryParams,
    response: TranslationsResponse,
  }),
];
