import type { Context } from '../src/core/context.ts';
import { runOperation } from '../src/core/operation.ts';
import { createTaxonomy, createTerm } from '../src/taxonomies/operations.ts';

/**
 * Issue 10's taxonomy figures: a `topic` taxonomy of 2,000 terms five levels deep, every entry filed
 * under one of its deepest terms, and a flat `tag` taxonomy of ten tags, every entry holding one (a
 * tag is on a tenth of the entries, as a blog's busy category is). Terms go through the operations;
 * the 20,000 entry terms are written in bulk, as the importer will.
 */
const topicLevels = [10, 40, 150, 400, 1400];
const tagCount = 10;

export interface SeededTerms {
  /** A tag on a tenth of the entries. */
  busyTag: string;
  /** A top-level topic: its descendants hold about a tenth of the entries. */
  topTopic: string;
  /** One deepest topic, on a handful of entries. */
  leafTopic: string;
}

export async function seedTerms(ctx: Context, collection: string, table: string): Promise<SeededTerms> {
  await runOperation(createTaxonomy, ctx, () => ({ name: 'topic', label: 'Topics', hierarchical: true, collections: [collection] }));
  await runOperation(createTaxonomy, ctx, () => ({ name: 'tag', label: 'Tags', hierarchical: false, collections: [collection] }));
  const levels: string[][] = [];
  for (const [depth, size] of topicLevels.entries()) {
    const level: string[] = [];
    for (let index = 0; index < size; index += 1) {
      const parentId = depth === 0 ? null : levels[depth - 1]![index % levels[depth - 1]!.length]!;
      const { item } = await runOperation(createTerm, ctx, () => ({ name: 'topic', slug: `topic-${depth}-${index}`, label: `Topic ${depth}.${index}`, parentId }));
      level.push(item.id);
    }
    levels.push(level);
  }
  const tags: string[] = [];
  for (let index = 0; index < tagCount; index += 1) {
    tags.push((await runOperation(createTerm, ctx, () => ({ name: 'tag', slug: `tag-${index}`, label: `Tag ${index}` }))).item.id);
  }
  const [collectionRow, topic, tag] = await Promise.all([
    ctx.db.kysely.selectFrom('collections').select('id').where('slug', '=', collection).executeTakeFirstOrThrow(),
    ctx.db.kysely.selectFrom('taxonomies').select('id').where('name', '=', 'topic').executeTakeFirstOrThrow(),
    ctx.db.kysely.selectFrom('taxonomies').select('id').where('name', '=', 'tag').executeTakeFirstOrThrow(),
  ]);
  const entries = await ctx.db.kysely.selectFrom(table as 'collections').select('_id as id' as 'id').orderBy('_id' as 'id').execute();
  const leaves = levels.at(-1)!;
  const now = new Date().toISOString();
  const rows = entries.flatMap(({ id }, n) => [
    { term_id: leaves[n % leaves.length]!, taxonomy_id: topic.id, collection_id: collectionRow.id, entry_id: id, created_at: now },
    { term_id: tags[n % tagCount]!, taxonomy_id: tag.id, collection_id: collectionRow.id, entry_id: id, created_at: now },
  ]);
  for (let start = 0; start < rows.length; start += 500) await ctx.db.kysely.insertInto('entry_terms').values(rows.slice(start, start + 500)).execute();
  return { busyTag: 'tag:tag-3', topTopic: 'topic:topic-0-3', leafTopic: 'topic:topic-4-7' };
}
