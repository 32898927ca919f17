import type { z } from 'zod';
import { isoNow } from '../core/clock.ts';
import { AppError, notFound, validationError } from '../core/errors.ts';
import { newId } from '../core/ids.ts';
import { access, defineOperation } from '../core/operation.ts';
import { partialUpdate } from '../core/partial-update.ts';
import { pageByKey, type Page } from '../core/pagination.ts';
import type { Db } from '../db/connection.ts';
import { inTransaction } from '../db/dialect.ts';
import { contentRead, contentWrite } from '../content/access.ts';
import { loadEntry } from '../content/lookup.ts';
import * as schemaStore from '../schema/store.ts';
import type { CreateTaxonomyBody, CreateTermBody, EntryTermsBody, ListTermsQuery, ReorderTermsBody, Taxonomy, Term, TermTreeNode, UpdateTaxonomyBody, UpdateTermBody } from './schemas.ts';
import * as store from './store.ts';

/** Definitions are part of the site's schema (DECISIONS §2: read `content:read`, write `schema:write`). */
const taxonomyWrite = access.scope('schema:write');

function toTaxonomy(row: store.TaxonomyWithCollections): Taxonomy {
  return {
    name: row.name,
    label: row.label,
    labelSingular: row.label_singular,
    hierarchical: row.hierarchical === 1,
    collections: row.collections,
    urlPattern: row.url_pattern,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toTerm(row: store.TermRow, counts: Map<string, number>): Term {
  return {
    id: row.id,
    slug: row.slug,
    label: row.label,
    parentId: row.parent_id,
    description: row.description,
    count: counts.get(row.id) ?? 0,
    sortOrder: row.sort_order,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Terms as the API shows them, with their entry counts from one statement. */
async function toTerms(db: Db, rows: store.TermRow[]): Promise<Term[]> {
  const counts = await store.countEntriesByTerm(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toTerm(row, counts));
}

async function requireTaxonomy(db: Db, name: string): Promise<store.TaxonomyWithCollections> {
  const taxonomy = await store.findTaxonomy(db, name);
  if (!taxonomy) throw notFound(`Taxonomy ${name}`);
  return taxonomy;
}

async function requireTerm(db: Db, taxonomy: store.TaxonomyRow, slug: string): Promise<store.TermRow> {
  const term = await store.findTermBySlug(db, taxonomy.id, slug);
  if (!term) throw notFound(`Term ${slug} in ${taxonomy.name}`);
  return term;
}

/** The ids of the collections named, in order; any that does not exist is a 400 naming its place. */
async function collectionIds(db: Db, slugs: readonly string[]): Promise<string[]> {
  const rows = await schemaStore.listCollectionRows(db);
  const bySlug = new Map(rows.map((row) => [row.slug, row.id]));
  const issues = slugs.flatMap((slug, index) => (bySlug.has(slug) ? [] : [{ path: `collections.${index}`, message: `No collection ${slug}` }]));
  if (issues.length > 0) throw validationError(issues);
  return [...new Set(slugs)].map((slug) => bySlug.get(slug)!);
}

function nameTaken(name: string): AppError {
  return new AppError('CONFLICT', `A taxonomy named ${name} already exists`, { name });
}

function slugTaken(taxonomy: string, slug: string): AppError {
  return new AppError('DUPLICATE_SLUG', `Taxonomy ${taxonomy} already has a term ${slug}`, { slug });
}

export const listTaxonomies = defineOperation({
  name: 'taxonomies.list',
  access: contentRead,
  async run(ctx): Promise<{ items: Taxonomy[] }> {
    return { items: (await store.listTaxonomies(ctx.db)).map(toTaxonomy) };
  },
});

export const getTaxonomy = defineOperation({
  name: 'taxonomies.get',
  access: contentRead,
  async run(ctx, input: { name: string }): Promise<{ item: Taxonomy }> {
    return { item: toTaxonomy(await requireTaxonomy(ctx.db, input.name)) };
  },
});

export const createTaxonomy = defineOperation({
  name: 'taxonomies.create',
  access: taxonomyWrite,
  async run(ctx, input: z.output<typeof CreateTaxonomyBody>): Promise<{ item: Taxonomy }> {
    return inTransaction(ctx.db, async (db) => {
      const ids = await collectionIds(db, input.collections);
      const now = isoNow(ctx.clock);
      const row: store.TaxonomyRow = {
        id: newId(),
        name: input.name,
        label: input.label,
        label_singular: input.labelSingular ?? null,
        hierarchical: input.hierarchical ? 1 : 0,
        url_pattern: input.urlPattern ?? null,
        created_at: now,
        updated_at: now,
      };
      if (!(await store.insertTaxonomy(db, row))) throw nameTaken(input.name);
      await store.setTaxonomyCollections(db, row.id, ids);
      return { item: toTaxonomy({ ...row, collections: [...new Set(input.collections)].sort() }) };
    });
  },
});

/** Labels, collections and the URL pattern; the name and whether terms nest are fixed once terms may rely on them. */
export const updateTaxonomy = defineOperation({
  name: 'taxonomies.update',
  access: taxonomyWrite,
  async run(ctx, input: { name: string } & z.output<typeof UpdateTaxonomyBody>): Promise<{ item: Taxonomy }> {
    return inTransaction(ctx.db, async (db) => {
      const taxonomy = await requireTaxonomy(db, input.name);
      if (input.collections !== undefined) {
        const ids = await collectionIds(db, input.collections);
        await store.setTaxonomyCollections(db, taxonomy.id, ids);
      }
      await store.updateTaxonomy(db, taxonomy.id, partialUpdate({ label: input.label, label_singular: input.labelSingular, url_pattern: input.urlPattern }, isoNow(ctx.clock)));
      return { item: toTaxonomy((await store.findTaxonomy(db, input.name))!) };
    });
  },
});

/** Removes the definition, its terms and every entry's terms of it. */
export const deleteTaxonomy = defineOperation({
  name: 'taxonomies.delete',
  access: taxonomyWrite,
  async run(ctx, input: { name: string }): Promise<{ success: true }> {
    await inTransaction(ctx.db, async (db) => store.deleteTaxonomy(db, (await requireTaxonomy(db, input.name)).id));
    return { success: true };
  },
});

export const listTerms = defineOperation({
  name: 'taxonomies.listTerms',
  access: contentRead,
  async run(ctx, input: { name: string } & z.output<typeof ListTermsQuery>): Promise<Page<Term>> {
    const taxonomy = await requireTaxonomy(ctx.db, input.name);
    const rowsAfter = (afterSlug: string | undefined) => store.listTerms(ctx.db, taxonomy.id, { afterSlug, limit: input.limit });
    const page = await pageByKey(input, (row) => row.slug, rowsAfter, (row) => row);
    return { ...page, items: await toTerms(ctx.db, page.items) };
  },
});

/**
 * A parent must be a term of the same hierarchical taxonomy and must not be the term itself or one of
 * its descendants (a cycle would make the tree endless).
 */
async function checkParent(db: Db, taxonomy: store.TaxonomyRow, parentId: string | null | undefined, termId?: string): Promise<void> {
  if (parentId === undefined || parentId === null) return;
  if (taxonomy.hierarchical !== 1) throw validationError([{ path: 'parentId', message: `Taxonomy ${taxonomy.name} is flat: its terms have no parent` }]);
  let current: string | null = parentId;
  for (let depth = 0; current !== null; depth += 1) {
    if (current === termId) throw validationError([{ path: 'parentId', message: 'A term cannot sit under itself or one of its own descendants' }]);
    const [row] = await store.findTermsByIds(db, [current]);
    if (!row || row.taxonomy_id !== taxonomy.id) {
      throw validationError([{ path: 'parentId', message: depth === 0 ? `No term ${parentId} in ${taxonomy.name}` : 'The parent chain is broken' }]);
    }
    current = row.parent_id;
  }
}

export const createTerm = defineOperation({
  name: 'taxonomies.createTerm',
  access: contentWrite,
  async run(ctx, input: { name: string } & z.output<typeof CreateTermBody>): Promise<{ item: Term }> {
    return inTransaction(ctx.db, async (db) => {
      const taxonomy = await requireTaxonomy(db, input.name);
      await checkParent(db, taxonomy, input.parentId);
      const now = isoNow(ctx.clock);
      const row: store.TermRow = {
        id: newId(),
        taxonomy_id: taxonomy.id,
        slug: input.slug,
        label: input.label,
        parent_id: input.parentId ?? null,
        description: input.description ?? null,
        sort_order: await store.nextTermOrder(db, taxonomy.id, input.parentId ?? null),
        created_at: now,
        updated_at: now,
      };
      if (!(await store.insertTerm(db, row))) throw slugTaken(taxonomy.name, input.slug);
      return { item: toTerm(row, new Map()) };
    });
  },
});

export const updateTerm = defineOperation({
  name: 'taxonomies.updateTerm',
  access: contentWrite,
  async run(ctx, input: { name: string; slug: string; body: z.output<typeof UpdateTermBody> }): Promise<{ item: Term }> {
    return inTransaction(ctx.db, async (db) => {
      const taxonomy = await requireTaxonomy(db, input.name);
      const term = await requireTerm(db, taxonomy, input.slug);
      const { body } = input;
      await checkParent(db, taxonomy, body.parentId, term.id);
      // Under a new parent, last among its new siblings.
      const moves = body.parentId !== undefined && body.parentId !== term.parent_id;
      const sortOrder = moves ? await store.nextTermOrder(db, taxonomy.id, body.parentId ?? null) : undefined;
      const changes = partialUpdate({ slug: body.slug, label: body.label, parent_id: body.parentId, description: body.description, sort_order: sortOrder }, isoNow(ctx.clock));
      if (!(await store.updateTerm(db, term.id, changes))) throw slugTaken(taxonomy.name, body.slug!);
      const [item] = await toTerms(db, [{ ...term, ...changes }]);
      return { item: item! };
    });
  },
});

/** A taxonomy's whole tree of terms, in order, with their entry counts: two statements whatever its size. */
export const getTermTree = defineOperation({
  name: 'taxonomies.getTermTree',
  access: contentRead,
  async run(ctx, input: { name: string }): Promise<{ items: TermTreeNode[] }> {
    const taxonomy = await requireTaxonomy(ctx.db, input.name);
    const rows = await store.listAllTerms(ctx.db, taxonomy.id);
    const counts = await store.countEntriesByTaxonomy(ctx.db, taxonomy.id);
    const nodes = new Map(rows.map((row) => [row.id, { ...toTerm(row, counts), children: [] as TermTreeNode[] }]));
    const items: TermTreeNode[] = [];
    // Rows come in sibling order, so appending keeps it; a parent outside the taxonomy would be a broken chain, shown at the top.
    for (const node of nodes.values()) (node.parentId === null ? items : (nodes.get(node.parentId)?.children ?? items)).push(node);
    return { items };
  },
});

/**
 * Puts terms under new parents at new places, all or nothing: each must be a term of the taxonomy,
 * a parent must be one too (none in a flat taxonomy), and the tree must stay a tree.
 */
export const reorderTerms = defineOperation({
  name: 'taxonomies.reorderTerms',
  access: contentWrite,
  async run(ctx, input: { name: string } & z.output<typeof ReorderTermsBody>): Promise<{ items: TermTreeNode[] }> {
    await inTransaction(ctx.db, async (db) => {
      const taxonomy = await requireTaxonomy(db, input.name);
      const rows = await store.listAllTerms(db, taxonomy.id);
      const parents = new Map(rows.map((row) => [row.id, row.parent_id]));
      const issues: { path: string; message: string }[] = [];
      const seen = new Set<string>();
      input.terms.forEach(({ id, parentId }, index) => {
        if (!parents.has(id)) issues.push({ path: `terms.${index}.id`, message: `No term ${id} in ${taxonomy.name}` });
        else if (seen.has(id)) issues.push({ path: `terms.${index}.id`, message: 'Placed twice' });
        seen.add(id);
        if (parentId === null) return;
        if (taxonomy.hierarchical !== 1) issues.push({ path: `terms.${index}.parentId`, message: `Taxonomy ${taxonomy.name} is flat: its terms have no parent` });
        else if (!parents.has(parentId)) issues.push({ path: `terms.${index}.parentId`, message: `No term ${parentId} in ${taxonomy.name}` });
      });
      if (issues.length > 0) throw validationError(issues);
      for (const { id, parentId } of input.terms) parents.set(id, parentId);
      for (const [index, { id }] of input.terms.entries()) {
        // Walking up from the term must reach the top within as many steps as there are terms.
        let at: string | null | undefined = parents.get(id);
        for (let steps = 0; at !== null && at !== undefined; steps++) {
          if (at === id || steps > parents.size) throw validationError([{ path: `terms.${index}.parentId`, message: 'A term cannot sit under itself or one of its own descendants' }]);
          at = parents.get(at);
        }
      }
      // Only the terms whose place changes are written (and their updatedAt moved): a client may send
      // the whole tree for one move, and a term left where it was has not changed.
      const before = new Map(rows.map((row) => [row.id, row]));
      const moved = input.terms.filter(({ id, parentId, sortOrder }) => {
        const was = before.get(id)!;
        return was.parent_id !== parentId || was.sort_order !== sortOrder;
      });
      await store.placeTerms(db, moved, isoNow(ctx.clock));
    });
    return getTermTree.run(ctx, { name: input.name });
  },
});

/** Entries lose the term; its children move up to its parent. */
export const deleteTerm = defineOperation({
  name: 'taxonomies.deleteTerm',
  access: contentWrite,
  async run(ctx, input: { name: string; slug: string }): Promise<{ success: true }> {
    await inTransaction(ctx.db, async (db) => {
      const taxonomy = await requireTaxonomy(db, input.name);
      await store.deleteTerm(db, await requireTerm(db, taxonomy, input.slug));
    });
    return { success: true };
  },
});

/** The taxonomy, which must apply to the entry's collection (DECISIONS §3: unknown 404, not linked 400). */
async function linkedTaxonomy(db: Db, name: string, collection: string): Promise<store.TaxonomyWithCollections> {
  const taxonomy = await requireTaxonomy(db, name);
  if (!taxonomy.collections.includes(collection)) {
    throw validationError([{ path: 'taxonomy', message: `Taxonomy ${name} does not apply to collection ${collection}` }]);
  }
  return taxonomy;
}

type EntryTermsInput = { collection: string; id: string; taxonomy: string };

export const getEntryTerms = defineOperation({
  name: 'taxonomies.entryTerms',
  access: contentRead,
  async run(ctx, input: EntryTermsInput): Promise<{ taxonomy: string; items: Term[] }> {
    const { collection, row } = await loadEntry(ctx, ctx.db, input);
    const taxonomy = await linkedTaxonomy(ctx.db, input.taxonomy, collection.slug);
    return { taxonomy: taxonomy.name, items: await toTerms(ctx.db, await store.listEntryTerms(ctx.db, row._id, taxonomy.id)) };
  },
});

/** Replaces the entry's terms in the taxonomy; a term of another taxonomy is a 400 and nothing changes. */
export const setEntryTerms = defineOperation({
  name: 'taxonomies.setEntryTerms',
  access: contentWrite,
  async run(ctx, input: EntryTermsInput & z.output<typeof EntryTermsBody>): Promise<{ taxonomy: string; items: Term[] }> {
    return inTransaction(ctx.db, async (db) => {
      const { collection, row } = await loadEntry(ctx, db, input, { lock: true });
      const taxonomy = await linkedTaxonomy(db, input.taxonomy, collection.slug);
      const wanted = [...new Set(input.termIds)];
      const found = new Set((await store.findTermsByIds(db, wanted)).filter((term) => term.taxonomy_id === taxonomy.id).map((term) => term.id));
      const issues = input.termIds.flatMap((id, index) => (found.has(id) ? [] : [{ path: `termIds.${index}`, message: `No term ${id} in ${taxonomy.name}` }]));
      if (issues.length > 0) throw validationError(issues);
      await store.replaceEntryTerms(db, { id: row._id, collectionId: collection.id }, taxonomy.id, wanted, isoNow(ctx.clock));
      return { taxonomy: taxonomy.name, items: await toTerms(db, await store.listEntryTerms(db, row._id, taxonomy.id)) };
    });
  },
});
