import type { Db } from '../../db/connection.ts';
import type { ImportReport } from '../schemas.ts';
import type { MediaPhaseReport } from './media.ts';
import type { SourceAnalysis } from '../sources/types.ts';
import * as store from '../store.ts';

/**
 * The report of an import (DECISIONS §7), read from what the job wrote (checkpoints and notes), so
 * it is the same however many times the job was interrupted and resumed; with what its media phase
 * did, once it has run.
 */
export async function buildReport(db: Db, jobId: string, summary: SourceAnalysis, media: MediaPhaseReport = {}): Promise<ImportReport> {
  const sourceKey = summary.sourceKey;
  const counts: Record<string, number> = {};
  let sections = 0;
  let terms = 0;
  let bylines = 0;
  let featuredImages = 0;
  let menus = 0;
  let redirects = 0;
  for (const row of await store.countsByCollection(db, jobId)) {
    if (row.kind === 'post' && row.collection !== null) counts[row.collection] = row.count;
    else if (row.kind === 'section') sections = row.count;
    else if (row.kind.startsWith('term:')) terms += row.count;
    else if (row.kind === 'author') bylines = row.count;
    else if (row.kind === 'featured') featuredImages = row.count;
    else if (row.kind === 'menu') menus = row.count;
    else if (row.kind === 'redirect') redirects += row.count;
  }
  const notes = await store.listNotes(db, jobId);
  const skipped = new Map<string, { reason: string; count: number; items: { sourceId: string; title: string | null }[] }>();
  const failed: ImportReport['failed'] = [];
  const warnings: ImportReport['warnings'] = [];
  let alreadyImported = 0;
  for (const note of notes) {
    if (note.kind === 'existing') alreadyImported++;
    else if (note.kind === 'failed') failed.push({ sourceId: note.source_id, title: note.title, cause: note.message });
    else if (note.kind === 'warning') warnings.push({ sourceId: note.source_id, title: note.title, message: note.message });
    else {
      const group = skipped.get(note.message) ?? { reason: note.message, count: 0, items: [] };
      group.count++;
      group.items.push({ sourceId: note.source_id, title: note.title });
      skipped.set(note.message, group);
    }
  }
  await linkWarnings(db, sourceKey, warnings);
  const attachments = await store.attachmentsOfSource(db, sourceKey);
  const comments = Object.fromEntries((await store.commentsOfJob(db, jobId)).map((row) => [row.status, row.count]));
  const menuRows = (await store.importedOfKind(db, sourceKey, 'menu_item')).filter((row) => row.job_id === jobId && row.target_id !== '' && row.target_id !== '-');
  return {
    counts,
    sections,
    terms,
    bylines,
    menus,
    menuItems: menuRows.length,
    comments: { approved: comments.approved ?? 0, pending: comments.pending ?? 0, spam: comments.spam ?? 0, trash: comments.trash ?? 0 },
    alreadyImported,
    redirects,
    media: {
      attachments: attachments.length,
      featuredImages,
      ...media,
    },
    skipped: [...skipped.values(), ...notInTheItems(summary)],
    failed,
    warnings,
  };
}

/** Each warning of an item that became an entry names it, so the report can lead to it. */
async function linkWarnings(db: Db, sourceKey: string, warnings: ImportReport['warnings']): Promise<void> {
  if (warnings.length === 0) return;
  const entries = new Map((await store.importedPosts(db, sourceKey, [...new Set(warnings.map((warning) => warning.sourceId))])).map((row) => [row.source_id, row]));
  for (const warning of warnings) {
    const entry = entries.get(warning.sourceId);
    if (entry?.collection) warning.entry = { collection: entry.collection, id: entry.target_id };
  }
}

/** What the source holds that no item of the import stands for: internal post types. */
function notInTheItems(summary: SourceAnalysis): ImportReport['skipped'] {
  return summary.skipped.filter((entry) => !entry.postType.includes(' (')).map((entry) => ({ reason: `${entry.postType}: ${entry.reason}`, count: entry.count, items: [] }));
}
