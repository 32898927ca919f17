import type { AuthorizedContext } from '../../core/operation.ts';
import type { Db } from '../../db/connection.ts';
import type { LoadedCollection } from '../../schema/store.ts';
import type { ImportOptionsInput } from '../schemas.ts';
import type * as store from '../store.ts';

/** What one run of an import job works with: who, where from, where to, and what it has made so far. */
export interface ImportRun {
  ctx: AuthorizedContext;
  jobId: string;
  sourceKey: string;
  /** Post type → target collection slug. */
  mappings: Record<string, string>;
  options: ImportOptionsInput;
  /** Source author login → Folio user id. */
  authorMapping: Record<string, string>;
  /** Who started the import: the owner of entries whose author maps to no user. */
  createdBy: string | null;
  locale: string;
  /** Source author login → byline id. */
  bylines: Map<string, string>;
  /** `<source taxonomy>:<source term id or slug>` → term id. */
  terms: Map<string, string>;
  /** Target taxonomy name → its id, once created or found. */
  taxonomies: Map<string, { id: string; collections: Set<string> }>;
}

/** The row that records what an import made of a source item: its checkpoint. */
export function itemRow(run: ImportRun, kind: string, sourceId: string, targetId: string, extra: { collection?: string; data?: unknown } = {}): store.ImportItemRow {
  return {
    source_key: run.sourceKey,
    kind,
    source_id: sourceId,
    target_id: targetId,
    collection: extra.collection ?? null,
    data: extra.data === undefined ? null : JSON.stringify(extra.data),
    job_id: run.jobId,
    created_at: run.ctx.clock.now().toISOString(),
  };
}

export type NoteKind = 'warning' | 'skipped' | 'failed' | 'existing';

export function noteRow(run: ImportRun, kind: NoteKind, sourceId: string, title: string | null, message: string): store.NoteRow {
  return { job_id: run.jobId, kind, source_id: sourceId, title, message, created_at: run.ctx.clock.now().toISOString() };
}

/** What one batch writes besides the entries: checkpoints and report lines, inserted at its end. */
export interface BatchOutput {
  items: store.ImportItemRow[];
  notes: store.NoteRow[];
  /** Collections loaded in this transaction (locked against schema changes). */
  collections: Map<string, LoadedCollection>;
  /** Slugs given in this batch, per collection, not yet visible to a lookup of their own. */
  slugs: Map<string, Set<string>>;
  /** Of the slugs the batch's items ask for, those taken before it, per collection (one lookup per batch). */
  takenSlugs: Map<string, Set<string>>;
  db: Db;
}
