import { isoNow, type Clock } from '../core/clock.ts';
import type { ValidationIssue } from '../core/errors.ts';
import { newId } from '../core/ids.ts';
import { numberedSlug, slugify } from '../core/slugs.ts';
import type { Db } from '../db/connection.ts';
import type { Byline } from './schemas.ts';
import * as store from './store.ts';

/**
 * Bylines (import.md §2 rules 2-3): who an entry is credited to. An entry keeps its credits in order
 * as byline ids; the first is its primary byline. A byline may belong to a user, or be a guest's.
 */

export function toByline(row: store.BylineRow): Byline {
  return { id: row.id, slug: row.slug, displayName: row.display_name, userId: row.user_id, createdAt: row.created_at, updatedAt: row.updated_at };
}

/** What is wrong with credits a write names: each id must be a byline. */
export async function creditIssues(db: Db, ids: readonly string[] | undefined, path = 'bylines'): Promise<ValidationIssue[]> {
  if (ids === undefined || ids.length === 0) return [];
  const found = await store.existingBylineIds(db, ids);
  return ids.flatMap((id, index) => (found.has(id) ? [] : [{ path: `${path}.${index}`, message: `No byline ${id}` }]));
}

/** The credits as the entry column keeps them: null for none. */
export function creditsColumn(ids: readonly string[]): string | null {
  return ids.length === 0 ? null : JSON.stringify(ids);
}

export function creditsOf(column: string | null): string[] {
  return column === null ? [] : (JSON.parse(column) as string[]);
}

/**
 * Adds a byline with a slug made from its name, made unique with a numeric suffix. Returns the row,
 * or the user's existing byline when the user already has one.
 */
export async function addByline(db: Db, clock: Clock, byline: { displayName: string; slug?: string; email?: string | null; userId?: string | null }): Promise<store.BylineRow> {
  if (byline.userId) {
    const existing = await store.findBylineByUser(db, byline.userId);
    if (existing) return existing;
  }
  const base = byline.slug ?? (slugify(byline.displayName) || 'byline');
  const candidates = Array.from({ length: 20 }, (_, index) => numberedSlug(base, index + 1));
  const taken = await store.bylineSlugsTaken(db, candidates);
  let n = candidates.findIndex((candidate) => !taken.has(candidate)) + 1;
  if (n === 0) n = candidates.length + 1;
  const now = isoNow(clock);
  for (;; n++) {
    const row: store.BylineRow = { id: newId(), slug: numberedSlug(base, n), display_name: byline.displayName, email: byline.email ?? null, user_id: byline.userId ?? null, created_at: now, updated_at: now };
    if (await store.insertByline(db, row)) return row;
    // Taken by the user's own byline written meanwhile: that one is theirs.
    if (byline.userId) {
      const existing = await store.findBylineByUser(db, byline.userId);
      if (existing) return existing;
    }
  }
}
