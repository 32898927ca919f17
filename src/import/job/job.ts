import { z } from 'zod';
import { systemPrincipal } from '../../core/context.ts';
import type { AuthorizedContext } from '../../core/operation.ts';
import type { ChildProcessJob } from '../../jobs/child-process.ts';
import { defineJob, type JobKind } from '../../jobs/types.ts';
import { readSettings } from '../../settings/read.ts';
import { analysisInput, summaryOf } from '../analysis.ts';
import { batchSize, writeBatch } from './batch.ts';
import { linkItems } from './links.ts';
import { importJobMedia } from './media.ts';
import { importMenus } from './menus.ts';
import { buildReport } from './report.ts';
import type { ImportRun } from './run-state.ts';
import type { ImportProgress, ImportReport } from '../schemas.ts';
import { requireSource } from '../sources/registry.ts';
import type { ImportRecord, NormalizedAuthor, NormalizedTerm, SourceAnalysis } from '../sources/types.ts';
import * as store from '../store.ts';
import { importAuthors, importTerms, loadStructure } from './structure.ts';

/**
 * An import is a job (docs/decisions/0024): durable, leased, retried. Its passes — structure
 * (bylines, taxonomies), items in batches, links (parents, featured images), menus, media (with
 * `includeMedia`: downloads, then the URL rewrite) — each resume
 * from the checkpoints of the source's items, so a crash, a restart or a lost database connection
 * costs only the batch in flight, and running the job again duplicates nothing.
 */
export const importPayload = z.object({
  analysisId: z.string(),
  mappings: z.record(z.string(), z.string()),
  options: z.object({ includeMedia: z.boolean(), includeTaxonomies: z.boolean(), includeMenus: z.boolean() }),
  authorMapping: z.record(z.string(), z.string()),
});

export type ImportPayload = z.infer<typeof importPayload>;

declare module '../../core/context.ts' {
  interface ContextServices {
    /**
     * The import job as this process runs it: a server hands it to a process of its own
     * (jobs/child-process.ts, docs/decisions/0066); absent, it runs here (the CLI, tests).
     */
    importJobProcess?: ChildProcessJob<ImportPayload>;
  }
}

export const importKind: JobKind<ImportPayload> = { kind: 'import.run', payload: importPayload, maxAttempts: 10 };

/** How many items the analysis counted: what the progress counts up to. */
export function totalOf(summary: SourceAnalysis): number {
  const { attachments } = summary;
  // Skipped items that still pass through the batches to be named in the report (a status not imported,
  // a duplicate set aside) are listed as `type (why)`; internal types are not.
  const skippedInBatches = summary.skipped.filter((entry) => entry.postType.includes('(')).reduce((sum, entry) => sum + entry.count, 0);
  return (
    summary.postTypes.reduce((sum, type) => sum + type.count, 0) +
    skippedInBatches +
    attachments.images + attachments.video + attachments.audio + attachments.other +
    summary.menus.reduce((sum, menu) => sum + menu.items, 0) +
    summary.reusableBlocks
  );
}

export const importJob = defineJob({
  ...importKind,
  async run(jobCtx, job): Promise<ImportReport> {
    const ctx: AuthorizedContext = { ...jobCtx, principal: systemPrincipal, actor: undefined };
    const analysis = await store.findAnalysis(ctx.db, job.payload.analysisId);
    if (!analysis) throw new Error(`The analysis ${job.payload.analysisId} of this import is gone`);
    const source = await requireSource(ctx.config, analysis.source);
    const input = analysisInput(ctx, analysis);
    const total = totalOf(summaryOf(analysis));
    const run: ImportRun = {
      ctx,
      jobId: job.id,
      sourceKey: analysis.source_key,
      mappings: job.payload.mappings,
      options: job.payload.options,
      authorMapping: job.payload.authorMapping,
      createdBy: job.createdBy,
      locale: (await readSettings(ctx.db)).defaultLocale,
      bylines: new Map(),
      terms: new Map(),
      taxonomies: new Map(),
    };
    const report = (progress: ImportProgress) => job.progress(progress);
    await report({ phase: 'structure', processed: 0, total });
    await loadStructure(run);

    // The structure comes first in an export: read up to the first item.
    const authors: NormalizedAuthor[] = [];
    const terms: NormalizedTerm[] = [];
    for await (const record of source.fetchContent(input, { config: ctx.config, signal: job.signal })) {
      if (record.kind === 'author') authors.push(record.author);
      else if (record.kind === 'term') terms.push(record.term);
      else break;
    }
    await importAuthors(run, authors);
    if (run.options.includeTaxonomies) await importTerms(run, terms);

    let processed = 0;
    let batch: ImportRecord[] = [];
    const flush = async () => {
      await writeBatch(run, batch, job.signal);
      processed += batch.length;
      batch = [];
      await report({ phase: 'items', processed: Math.min(processed, total), total });
    };
    for await (const record of source.fetchContent(input, { config: ctx.config, signal: job.signal })) {
      if (record.kind === 'author' || record.kind === 'term') continue;
      batch.push(record);
      if (batch.length >= batchSize) await flush();
    }
    if (batch.length > 0) await flush();

    // The links pass counts what it resolves, so that its progress moves too (a page following it).
    const linking = await store.countItemsWithData(ctx.db, run.sourceKey, 'post');
    let linked = 0;
    await report({ phase: 'links', processed: 0, total: linking });
    await linkItems(run, job.signal, (count) => report({ phase: 'links', processed: (linked += count), total: linking }));
    if (run.options.includeMenus) {
      await report({ phase: 'menus', processed: total, total });
      await importMenus(run, summaryOf(analysis).menus, job.signal);
    }
    const media = run.options.includeMedia ? await importJobMedia(run, report, job.signal) : undefined;
    const result = await buildReport(ctx.db, job.id, summaryOf(analysis), media);
    await report({ phase: 'done', processed: total, total });
    ctx.log.info({ jobId: job.id, counts: result.counts, failed: result.failed.length }, 'import finished');
    return result;
  },
});
