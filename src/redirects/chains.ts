import { AppError } from '../core/errors.ts';
import { newId } from '../core/ids.ts';
import type { Db } from '../db/connection.ts';
import { serializeTransactions } from '../db/dialect.ts';
import type { RedirectRow } from './store.ts';
import * as store from './store.ts';

/**
 * What keeps redirects from going round in circles (docs/decisions/0057): a redirect whose target
 * leads, through the redirects there are, back to its own `from` is refused, and an entry's move
 * points the redirects to its old address at the new one instead of making a chain.
 */

/** A chain longer than this is not followed further: no real site has one, and it bounds the statements. */
const longestChain = 50;

// An arbitrary constant naming the redirects' lock among the database's advisory locks.
const redirectsLockKey = 7_346_121_905_126;

/**
 * Every transaction that writes redirects takes this first, so two that would close a loop
 * together (A→B and B→A at once) run one after the other and the second sees the first.
 */
export async function lockRedirects(tx: Db): Promise<void> {
  await serializeTransactions(tx, redirectsLockKey);
}

/** Whether following redirects from `toPath` comes back to `from`. */
export async function leadsBackTo(db: Db, from: string, toPath: string | null): Promise<boolean> {
  let at = toPath;
  for (let step = 0; at !== null && step < longestChain; step++) {
    if (at === from) return true;
    at = (await store.findByFrom(db, at))?.to_path ?? null;
  }
  return false;
}

export function loopRefused(from: string): AppError {
  return new AppError('VALIDATION_ERROR', `This target leads back to ${from}: the redirect would loop`, {
    issues: [{ path: 'to', message: `Leads back to ${from}, directly or through other redirects` }],
  });
}

/** An entry's address, as its collection's URL pattern makes it: what a visitor asked for and what it became. */
export interface EntryMove {
  collection: string;
  entryId: string;
  /** Canonical path of the old address. */
  fromPath: string;
  to: string;
  /** Canonical path of `to`. */
  toPath: string;
  now: string;
}

/**
 * A published entry's address changed: its old path leads to the new one, redirects that led to the
 * old path lead to the new one, and a redirect from the new path (the slug changed back) goes, so the
 * entry is served there again and nothing loops.
 */
export async function followEntryMove(tx: Db, move: EntryMove): Promise<void> {
  await lockRedirects(tx);
  await store.deleteFrom(tx, move.toPath);
  await store.retarget(tx, move.fromPath, { to: move.to, path: move.toPath, collection: move.collection, entryId: move.entryId, now: move.now });
  await store.upsertEntryRedirect(tx, entryRedirectRow(move, 'automatic'));
}

/**
 * An imported entry's old address: added unless that path has a redirect already (an earlier import
 * of the file) or it would loop. The new redirect's id, or undefined when none was added.
 */
export async function addEntryRedirect(tx: Db, move: EntryMove): Promise<string | undefined> {
  await lockRedirects(tx);
  if (await leadsBackTo(tx, move.fromPath, move.toPath)) return undefined;
  const row = entryRedirectRow(move, 'import');
  return (await store.insertRedirect(tx, row)) ? row.id : undefined;
}

function entryRedirectRow(move: EntryMove, source: 'automatic' | 'import'): RedirectRow {
  return {
    id: newId(),
    from_path: move.fromPath,
    to_target: move.to,
    to_path: move.toPath,
    status: 301,
    source,
    entry_collection: move.collection,
    entry_id: move.entryId,
    target_missing: 0,
    created_at: move.now,
    updated_at: move.now,
  };
}
