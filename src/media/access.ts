import { access } from '../core/operation.ts';
import { publicReadEnabled } from '../settings/read.ts';

/** Listing and reading media records: `media:read`, or anyone while the `publicRead` setting is on (DECISIONS §2). */
export const mediaRead = access.scope('media:read', { publicWhen: publicReadEnabled });

export const mediaWrite = access.scope('media:write');
