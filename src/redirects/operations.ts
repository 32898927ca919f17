import type { z } from 'zod';
import { contentRead, contentWrite } from '../content/access.ts';
import { isoNow } from '../core/clock.ts';
import { AppError, notFound } from '../core/errors.ts';
import { newId } from '../core/ids.ts';
import { access, defineOperation } from '../core/operation.ts';
import { pageByKey, type Page } from '../core/pagination.ts';
import type { Db } from '../db/connection.ts';
import { inTransaction, type Transaction } from '../db/dialect.ts';
import { ReadCache } from '../db/read-cache.ts';
import { leadsBackTo, lockRedirects, loopRefused } from './chains.ts';
import { countHit } from './hits.ts';
import { normalizePath, parseTarget, type Target } from './paths.ts';
import type { CreateRedirectBody, ListRedirectsQuery, Redirect, UpdateRedirectBody } from './schemas.ts';
import * as store from './store.ts';

// Who may do what: as for menus and sections, the site's structure (DECISIONS §2); the lookup is public.

function toRedirect(row: store.RedirectWithHits): Redirect {
  const redirect: Redirect = {
    id: row.id,
    from: row.from_path,
    to: row.to_target,
    status: row.status,
    source: row.source as Redirect['source'],
    targetMissing: row.target_missing === 1,
    hits: row.hits ?? 0,
    lastHitAt: row.last_hit_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
  if (row.entry_collection !== null && row.entry_id !== null) redirect.entry = { collection: row.entry_collection, id: row.entry_id };
  return redirect;
}

async function requireRedirect(db: Db, id: string): Promise<store.RedirectWithHits> {
  const redirect = await store.findRedirect(db, id);
  if (!redirect) throw notFound(`Redirect ${id}`);
  return redirect;
}

function fromTaken(from: string): AppError {
  return new AppError('CONFLICT', `A redirect from ${from} already exists`, { from });
}

/** The schemas checked both already; these read them into their stored form. */
function pathOf(from: string): string {
  return normalizePath(from)!;
}

function targetOf(to: string): Target {
  return parseTarget(to)!;
}

/**
 * Refuses a redirect from `from` whose target leads back to it, in the writing transaction (an update
 * is checked after its write, so the chain no longer passes through what it was).
 */
async function assertNoLoop(tx: Transaction, from: string, toPath: string | null): Promise<void> {
  if (await leadsBackTo(tx, from, toPath)) throw loopRefused(from);
}

export const listRedirects = defineOperation({
  name: 'redirects.list',
  access: contentRead,
  async run(ctx, input: z.output<typeof ListRedirectsQuery>): Promise<Page<Redirect>> {
    const rowsAfter = (afterFrom: string | undefined) => store.listRedirects(ctx.db, { search: input.search, source: input.source, targetMissing: input.targetMissing, afterFrom, limit: input.limit });
    return pageByKey(input, (row) => row.from_path, rowsAfter, toRedirect);
  },
});

export const getRedirect = defineOperation({
  name: 'redirects.get',
  access: contentRead,
  async run(ctx, input: { id: string }): Promise<{ item: Redirect }> {
    return { item: toRedirect(await requireRedirect(ctx.db, input.id)) };
  },
});

export const createRedirect = defineOperation({
  name: 'redirects.create',
  access: contentWrite,
  async run(ctx, input: z.output<typeof CreateRedirectBody>): Promise<{ item: Redirect }> {
    const from = pathOf(input.from);
    const target = targetOf(input.to);
    const now = isoNow(ctx.clock);
    const row: store.RedirectRow = {
      id: newId(),
      from_path: from,
      to_target: target.to,
      to_path: target.path,
      status: input.status,
      source: 'manual',
      entry_collection: null,
      entry_id: null,
      target_missing: 0,
      created_at: now,
      updated_at: now,
    };
    await inTransaction(ctx.db, async (tx) => {
      await lockRedirects(tx);
      await assertNoLoop(tx, from, target.path);
      if (!(await store.insertRedirect(tx, row))) throw fromTaken(from);
    });
    return { item: toRedirect({ ...row, hits: null, last_hit_at: null }) };
  },
});

/** Any of from, to and status; a new `to` ends the redirect's tie to the entry it was made for. */
export const updateRedirect = defineOperation({
  name: 'redirects.update',
  access: contentWrite,
  async run(ctx, input: { id: string; body: z.output<typeof UpdateRedirectBody> }): Promise<{ item: Redirect }> {
    const { body } = input;
    return inTransaction(ctx.db, async (tx) => {
      await lockRedirects(tx);
      const redirect = await requireRedirect(tx, input.id);
      const changes: Partial<store.RedirectRow> = { updated_at: isoNow(ctx.clock) };
      if (body.from !== undefined) changes.from_path = pathOf(body.from);
      if (body.status !== undefined) changes.status = body.status;
      if (body.to !== undefined) {
        const target = targetOf(body.to);
        Object.assign(changes, { to_target: target.to, to_path: target.path, entry_collection: null, entry_id: null, target_missing: 0 });
      }
      if (!(await store.updateRedirect(tx, redirect.id, changes))) throw fromTaken(changes.from_path!);
      const updated = { ...redirect, ...changes };
      await assertNoLoop(tx, updated.from_path, updated.to_path);
      return { item: toRedirect(updated) };
    });
  },
});

export const deleteRedirect = defineOperation({
  name: 'redirects.delete',
  access: contentWrite,
  async run(ctx, input: { id: string }): Promise<{ success: true }> {
    await inTransaction(ctx.db, async (tx) => store.deleteRedirect(tx, (await requireRedirect(tx, input.id)).id));
    return { success: true };
  },
});

/**
 * The answers of the lookup, by canonical path, for as long as no redirect changed (db/read-cache.ts).
 * Unknown paths, the most of a site's 404s, are not remembered: each costs one indexed read.
 */
const lookups = new ReadCache<{ id: string; to: string; status: number }>(10_000, ['redirects']);

/** Where a path the site could not serve has gone, for the site to answer with; the hit is counted afterwards. */
export const lookupRedirect = defineOperation({
  name: 'redirects.lookup',
  access: access.public,
  async run(ctx, input: { path: string }): Promise<{ to: string; status: number }> {
    const path = pathOf(input.path);
    const found = await lookups.get(ctx.db, path, async () => {
      const row = await store.findByFrom(ctx.db, path);
      return row && { id: row.id, to: row.to_target, status: row.status };
    });
    if (!found) throw notFound(`Redirect from ${path}`);
    countHit(ctx.db, ctx.log, { id: found.id, at: isoNow(ctx.clock) });
    return { to: found.to, status: found.status };
  },
});
