import type { Db } from './connection.ts';

/** How many keys asked once a `repeatsOnly` cache remembers per value it keeps: a key weighs little beside a value. */
const askedKeysPerEntry = 4;

interface Entry<V> {
  stamp: string;
  value: V;
}

/**
 * Remembers the result of a hot read for as long as the database cannot have changed under it: an
 * entry is used only while the database's change stamp is the one seen before the read was made. So
 * a token revoked or a user disabled by any process, the CLI included, is seen on the next request.
 * Where there is no stamp for the tables (PostgreSQL while it is not listening for changes, or for a
 * table that does not notify), every call reads. Inside a transaction the stamp is read afresh
 * (db/dialect.ts), and the transaction's own writes move it at once (on PostgreSQL: there is none).
 * An undefined result (nothing found) is never remembered, so lookups of unknown keys cannot fill it.
 */
export class ReadCache<V> {
  private readonly byDatabase = new WeakMap<object, Map<string, Entry<V>>>();
  /** With `repeatsOnly`: the keys asked once lately (at most askedKeysPerEntry × maxEntries, oldest first out). */
  private readonly askedOnce = new WeakMap<object, Set<string>>();
  private readonly maxEntries: number;
  private readonly tables: readonly string[];
  private readonly repeatsOnly: boolean;

  /**
   * `tables`: every table the cached reads look at; a write to any of them makes entries stale.
   * `repeatsOnly`: a value is kept the second time its key is asked, not the first. For reads whose
   * keys are mostly asked once (a search box's queries): each value kept costs the garbage collector
   * its copying and marking, and a kept value pushes out one that was asked again.
   */
  constructor(maxEntries: number, tables: readonly string[], { repeatsOnly = false } = {}) {
    this.maxEntries = maxEntries;
    this.tables = tables;
    this.repeatsOnly = repeatsOnly;
  }

  async get(db: Db, key: string, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const stamp = db.changeStamp?.(this.tables);
    if (stamp === undefined) return load();
    let entries = this.byDatabase.get(db.identity);
    if (!entries) this.byDatabase.set(db.identity, (entries = new Map()));
    const entry = entries.get(key);
    if (entry?.stamp === stamp) return entry.value;
    const value = await load();
    // A stale entry's key was kept before: its new value is kept at once.
    if (value === undefined || (entry === undefined && this.isFirstAsk(db, key))) return value;
    if (entries.size >= this.maxEntries) entries.delete(entries.keys().next().value!);
    // Stamped with what was current before the read: a write during the read makes it stale at once.
    entries.set(key, { stamp, value });
    return value;
  }

  /** With `repeatsOnly`, whether this is the first time the key is asked (its value is then not kept). */
  private isFirstAsk(db: Db, key: string): boolean {
    if (!this.repeatsOnly) return false;
    let asked = this.askedOnce.get(db.identity);
    if (!asked) this.askedOnce.set(db.identity, (asked = new Set()));
    if (asked.delete(key)) return false;
    if (asked.size >= this.maxEntries * askedKeysPerEntry) asked.delete(asked.values().next().value!);
    asked.add(key);
    return true;
  }
}
