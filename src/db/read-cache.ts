import type { Db } from './connection.ts';

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
  private readonly maxEntries: number;
  private readonly tables: readonly string[];

  /** `tables`: every table the cached reads look at; a write to any of them makes entries stale. */
  constructor(maxEntries: number, tables: readonly string[]) {
    this.maxEntries = maxEntries;
    this.tables = tables;
  }

  async get(db: Db, key: string, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const stamp = db.changeStamp?.(this.tables);
    if (stamp === undefined) return load();
    let entries = this.byDatabase.get(db.identity);
    if (!entries) this.byDatabase.set(db.identity, (entries = new Map()));
    const entry = entries.get(key);
    if (entry?.stamp === stamp) return entry.value;
    const value = await load();
    if (value === undefined) return value;
    if (entries.size >= this.maxEntries) entries.delete(entries.keys().next().value!);
    // Stamped with what was current before the read: a write during the read makes it stale at once.
    entries.set(key, { stamp, value });
    return value;
  }
}
