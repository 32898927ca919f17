import type { operations } from './api/schema';

/** What Folio records and sends when something changes, as the API's filters and subscriptions name it. */
export type EventType = NonNullable<NonNullable<operations['auditLog.list']['parameters']['query']>['action']>;

/** Every event type, in the API's order: the compiler checks the list against the API's enum. */
export const eventTypes = Object.keys({
  'content.saved': true,
  'content.published': true,
  'content.unpublished': true,
  'content.deleted': true,
  'media.uploaded': true,
  'media.deleted': true,
  'user.signed_in': true,
  'comment.created': true,
  'comment.approved': true,
  'comment.moderated': true,
  'comment.updated': true,
  'comment.deleted': true,
} satisfies Record<EventType, true>) as EventType[];
