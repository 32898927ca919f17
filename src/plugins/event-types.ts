import type { AfterHookName, HookEvents, QueuedHookEvents } from './types.ts';

/**
 * The names events go by outside the process, in webhook payloads and audit records
 * (`resource.pastTense`, as Standard Webhooks suggests), one per after-hook.
 */
export const eventTypeOf = {
  'content:afterSave': 'content.saved',
  'content:afterPublish': 'content.published',
  'content:afterUnpublish': 'content.unpublished',
  'content:afterDelete': 'content.deleted',
  'media:afterUpload': 'media.uploaded',
  'media:afterDelete': 'media.deleted',
  'user:afterSignIn': 'user.signed_in',
  'comment:afterCreate': 'comment.created',
  'comment:afterApprove': 'comment.approved',
  'comment:afterModerate': 'comment.moderated',
  'comment:afterUpdate': 'comment.updated',
  'comment:afterDelete': 'comment.deleted',
} as const satisfies Record<AfterHookName, string>;

export const eventTypes = Object.values(eventTypeOf);
export type EventType = (typeof eventTypes)[number];
export const afterHookNames = Object.keys(eventTypeOf) as AfterHookName[];

/** Whether a list of event types (a subscription's, a plugin's `takeEventData`) takes `type`: by name, or all with `*`. */
export function takesEventType(types: ReadonlySet<string>, type: string): boolean {
  return types.has('*') || types.has(type);
}

/** The resource an event is about: what the audit log files it under, what orders webhook deliveries. */
export function resourceOf(name: AfterHookName, event: QueuedHookEvents[AfterHookName]): { type: string; id: string } {
  if ('entry' in event) return { type: 'entry', id: event.entry.id };
  if ('item' in event) return { type: 'media', id: event.item.id };
  if ('comment' in event) return { type: 'comment', id: event.comment.id };
  if (name === 'user:afterSignIn' && 'user' in event) return { type: 'user', id: event.user.id };
  throw new Error(`no resource for ${name}`);
}

/** One transactional hook for every after-hook, from a function of the hook's name (the outbox, the audit log). */
export function forEveryEvent<Ctx>(record: (name: AfterHookName, event: HookEvents[AfterHookName], ctx: Ctx) => Promise<void>): { [E in AfterHookName]: (event: HookEvents[E], ctx: Ctx) => Promise<void> } {
  return Object.fromEntries(afterHookNames.map((name) => [name, (event: HookEvents[AfterHookName], ctx: Ctx) => record(name, event, ctx)])) as {
    [E in AfterHookName]: (event: HookEvents[E], ctx: Ctx) => Promise<void>;
  };
}
