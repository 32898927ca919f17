import { z } from 'zod';
import { EntryParams } from '../content/schemas.ts';
import { defineTool, limitArgument } from '../mcp/tool.ts';
import { listRevisions, restoreRevision } from './operations.ts';
import { RevisionParams } from './schemas.ts';

/** The two revision tools of mcp.md. */
export const revisionTools = [
  defineTool({
    name: 'revision_list',
    title: 'List revisions',
    description: "Lists an entry's revisions, newest first; the collection must support revisions.",
    operation: listRevisions,
    input: z.strictObject({ ...EntryParams.shape, limit: limitArgument(50, 20) }),
    flag: 'read-only',
  }),
  defineTool({
    name: 'revision_restore',
    title: 'Restore revision',
    description: "Makes a revision's values the entry's current draft; nothing is published.",
    operation: restoreRevision,
    input: z.strictObject(RevisionParams.shape),
  }),
];
