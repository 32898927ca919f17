import type { z } from 'zod';
import { isoNow } from '../core/clock.ts';
import { notFound, validationError } from '../core/errors.ts';
import { newId } from '../core/ids.ts';
import type { AuthorizedContext } from '../core/operation.ts';
import type { Db } from '../db/connection.ts';
import type { MultipartBody } from '../http/body.ts';
import { loadCollection } from '../schema/store.ts';
import { compatibility, defaultCollection, wantedFields } from './fields.ts';
import type { AnalysisSchema, AnalysisSummarySchema } from './schemas.ts';
import { requireSource } from './sources/registry.ts';
import type { SourceAnalysis, SourceInput } from './sources/types.ts';
import * as store from './store.ts';
import { taxonomyTarget } from './job/taxonomy-names.ts';

/** How long an analysed upload is kept for `execute` form B. */
export const analysisLifetimeMs = 24 * 3_600_000;

export type AnalysisView = z.infer<typeof AnalysisSchema>;
export type AnalysisSummary = z.infer<typeof AnalysisSummarySchema>;

/** A stored upload as the source reads it: its bytes from media storage, as often as asked. */
function storedFile(ctx: Pick<AuthorizedContext, 'storage'>, key: string, filename: string): SourceInput {
  return { type: 'file', file: () => ctx.storage.read(key), filename };
}

/**
 * Reads the multipart body's `file` part into storage (once; the body limit applies as it streams)
 * and returns its key, with the other parts' text. A body that fails half-way leaves no file.
 */
export async function receiveUpload(ctx: AuthorizedContext, parts: MultipartBody, textParts: readonly string[]): Promise<{ key: string; filename: string; size: number; fields: Record<string, string> }> {
  let upload: { key: string; filename: string; size: number } | undefined;
  const fields: Record<string, string> = {};
  const iterator = parts[Symbol.asyncIterator]();
  try {
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      const part = next.value;
      if (part.kind === 'field') {
        if (!textParts.includes(part.name)) throw validationError([{ path: part.name, message: `Unknown part: only file${textParts.map((name) => `, ${name}`).join('')}` }]);
        if (Object.hasOwn(fields, part.name)) throw validationError([{ path: part.name, message: 'Must be given once' }]);
        fields[part.name] = part.value;
      } else if (part.name === 'file' && upload === undefined) {
        const key = `imports/${newId().toLowerCase()}.xml`;
        upload = { key, filename: part.filename || 'export.xml', size: 0 };
        try {
          upload.size = (await ctx.storage.write(key, part.stream, { contentType: 'application/xml' })).size;
        } catch (error) {
          // A body that broke off fails the file's stream first: the body's own error says what happened.
          await iterator.next();
          throw error;
        }
      } else {
        part.stream.resume();
        throw validationError([{ path: part.name, message: part.name === 'file' ? 'Must be given once' : 'Unknown part' }]);
      }
    }
    if (!upload) throw validationError([{ path: 'file', message: 'Required: the export file, as a multipart part named file' }]);
    return { ...upload, fields };
  } catch (error) {
    if (upload) await ctx.storage.delete([upload.key]);
    throw error;
  } finally {
    await iterator.return?.();
  }
}

/** Analyses a stored upload with the source and records the analysis; the file is removed if it cannot be read. */
export async function analyzeUpload(ctx: AuthorizedContext, sourceId: string, upload: { key: string; filename: string; size: number }): Promise<AnalysisView> {
  try {
    return await recordAnalysis(ctx, sourceId, storedFile(ctx, upload.key, upload.filename), { storage_key: upload.key, filename: upload.filename, size: upload.size, input: null });
  } catch (error) {
    await ctx.storage.delete([upload.key]);
    throw error;
  }
}

/**
 * Analyses a live site (`legacy-hosted` with its access token): nothing is stored but what the source
 * reads, kept with the analysis (and removed with it) so the import job can read the site again.
 */
export async function analyzeSite(ctx: AuthorizedContext, sourceId: string, input: Extract<SourceInput, { type: 'oauth' | 'url' }>): Promise<AnalysisView> {
  return recordAnalysis(ctx, sourceId, input, { storage_key: '', filename: input.url, size: 0, input: JSON.stringify(input) });
}

async function recordAnalysis(ctx: AuthorizedContext, sourceId: string, input: SourceInput, stored: Pick<store.AnalysisRow, 'storage_key' | 'filename' | 'size' | 'input'>): Promise<AnalysisView> {
  const source = await requireSource(ctx.config, sourceId);
  const analysis = await source.analyze(input, { config: ctx.config });
  const now = ctx.clock.now();
  const row: store.AnalysisRow = {
    id: newId(),
    source: source.id,
    ...stored,
    source_key: analysis.sourceKey,
    summary: JSON.stringify(analysis),
    created_by: ctx.actor?.userId ?? null,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + analysisLifetimeMs).toISOString(),
  };
  await store.insertAnalysis(ctx.db, row);
  return describeAnalysis(ctx.db, row);
}

/** What the analysis' source reads: the stored upload, or the live site it was given. */
export function analysisInput(ctx: Pick<AuthorizedContext, 'storage'>, row: store.AnalysisRow): SourceInput {
  return row.input === null ? storedFile(ctx, row.storage_key, row.filename) : (JSON.parse(row.input) as SourceInput);
}

/** Drops analyses past their lifetime and their files (housekeeping's sweep). */
export async function removeExpiredAnalyses(ctx: Pick<AuthorizedContext, 'db' | 'storage' | 'clock'>): Promise<void> {
  // A live site's analysis has no file (an empty key).
  const keys = (await store.deleteExpiredAnalyses(ctx.db, isoNow(ctx.clock))).filter((key) => key !== '');
  if (keys.length > 0) await ctx.storage.delete(keys);
}

/** A stored analysis that has not expired; anything else is the same 404. */
export async function requireAnalysis(ctx: Pick<AuthorizedContext, 'db' | 'clock'>, id: string): Promise<store.AnalysisRow> {
  const row = await store.findAnalysis(ctx.db, id);
  if (!row || row.expires_at <= isoNow(ctx.clock)) throw notFound(`Analysis ${id} (unknown or expired)`);
  return row;
}

export function summaryOf(row: store.AnalysisRow): SourceAnalysis {
  return JSON.parse(row.summary) as SourceAnalysis;
}

/** An analysis in a list: which site, when, and how many entries it would import. */
export function analysisSummary(row: store.AnalysisRow): AnalysisSummary {
  const summary = summaryOf(row);
  return { analysisId: row.id, source: row.source, site: summary.site, entries: summary.postTypes.reduce((sum, type) => sum + type.count, 0), createdAt: row.created_at, expiresAt: row.expires_at };
}

/** The analysis as the API shows it: each post type checked against the collections as they stand now. */
export async function describeAnalysis(db: Db, row: store.AnalysisRow): Promise<AnalysisView> {
  const summary = summaryOf(row);
  const postTypes = [];
  for (const postType of summary.postTypes) {
    const collection = defaultCollection(postType.name);
    const fit = compatibility(await loadCollection(db, collection), wantedFields(postType, collection));
    postTypes.push({
      name: postType.name,
      count: postType.count,
      status: fit.status,
      collection,
      fieldsToAdd: fit.fieldsToAdd.map(({ slug, label, type }) => ({ slug, label, type })),
      conflicts: fit.conflicts,
      seo: postType.hasSeo ?? false,
    });
  }
  return {
    analysisId: row.id,
    source: row.source,
    expiresAt: row.expires_at,
    site: summary.site,
    ...(summary.version ? { version: summary.version } : {}),
    postTypes,
    skipped: summary.skipped,
    attachments: summary.attachments,
    authors: summary.authors,
    taxonomies: summary.taxonomies.map((taxonomy) => ({ ...taxonomy, target: taxonomyTarget(taxonomy.name) })),
    menus: summary.menus,
    reusableBlocks: summary.reusableBlocks,
    comments: summary.comments,
  };
}
