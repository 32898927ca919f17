import { access } from '../core/operation.ts';
import { roles } from '../core/roles.ts';
import { publicReadEnabled } from '../settings/read.ts';

/** Reading published content: `content:read`, or anyone while the `publicRead` setting is on. */
export const contentRead = access.scope('content:read', { publicWhen: publicReadEnabled });

/** Drafts, the trash, revisions and compare are for Contributors and up (DECISIONS §2). */
export const contentEditorRead = access.scope('content:read', { minRole: roles.contributor });

export const contentWrite = access.scope('content:write');

/**
 * Changing what the live site shows (publish, unpublish, schedule) is for Authors and up: a
 * Contributor drafts, an Author or Editor publishes (issue 31; the panel offers it the same way).
 */
export const contentPublish = access.scope('content:write', { minRole: roles.author });

/** Creating or saving with a `status` is publishing (or unpublishing) too; without one it is a Contributor's save. */
export const contentCreate = access.scope<{ status?: string }>('content:write', {
  inputRole: (input) => (input.status === 'published' ? roles.author : undefined),
});

/** On update, `published` publishes and `draft` unpublishes (DECISIONS §3): both are the Authors'. */
export const contentUpdate = access.scope<{ status?: string }>('content:write', {
  inputRole: (input) => (input.status !== undefined ? roles.author : undefined),
});

/**
 * A list filtered by a status other than published or by who created the entries, or sorted by
 * schedule, needs the editors' view: readers see neither drafts nor who wrote what.
 */
export const contentListRead = access.scope<{ status?: string; orderBy?: string; author?: string }>('content:read', {
  publicWhen: publicReadEnabled,
  inputRole: (input) =>
    (input.status !== undefined && input.status !== 'published') || input.orderBy === 'scheduledAt' || input.author !== undefined ? roles.contributor : undefined,
});
