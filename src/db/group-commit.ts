import { sql, type Kysely } from 'kysely';
import type { Database } from './types.ts';

/**
 * Group commit for SQLite (decisions/0032). A commit writes every page its transaction dirtied to the
 * WAL, and most of a small write's pages are the same for every write: the last page of each table
 * and index that only grows (entries, revisions, the plugins' queue, the time indexes). Writes that
 * happen in one turn of the event loop share one transaction here, each in a savepoint of its own,
 * and commit together at the end of the turn: the shared pages are written once.
 *
 * What each caller sees does not change: its work commits or rolls back as a whole (the savepoint),
 * and its promise settles only once the commit that holds it is on disk, so nothing is answered
 * before it is durable. If SQLite rolls back the whole transaction (an I/O error, a full disk), every
 * write of the group fails. Reads that run between two writes of one group see the writes before
 * them, as they would a moment later once committed.
 */
export interface GroupCommitEngine {
  /** Whether the connection is still inside a transaction (SQLite ends it on its own after some errors). */
  inTransaction(): boolean;
  /** Called when a group is lost: cached reads may have seen its writes. */
  lost(): void;
}

interface Group {
  committed: Promise<void>;
  settle(error?: unknown): void;
  aborted: boolean;
}

export type WriteTransaction = <T>(work: (kysely: Kysely<Database>) => Promise<T>) => Promise<T>;

export function groupCommit(kysely: Kysely<Database>, engine: GroupCommitEngine): { run: WriteTransaction; flush(): Promise<void> } {
  let open: Group | undefined;
  let lastCommit: Promise<void> = Promise.resolve();

  const newGroup = (): Group => {
    let settle!: Group['settle'];
    const committed = new Promise<void>((resolve, reject) => {
      settle = (error) => (error === undefined ? resolve() : reject(error));
    });
    // Every member awaits it; this only keeps a group no member waits for any more (all failed) from
    // being reported as an unhandled rejection.
    committed.catch(() => undefined);
    return { committed, settle, aborted: false };
  };

  const abort = (group: Group, error: unknown) => {
    group.aborted = true;
    if (open === group) open = undefined;
    engine.lost();
    group.settle(error);
  };

  const commit = (group: Group): Promise<void> =>
    kysely
      .connection()
      .execute(async (connection) => {
        if (group.aborted) return;
        // Writes that take the connection after this start a group of their own.
        open = undefined;
        try {
          await sql`commit`.execute(connection);
        } catch (error) {
          if (engine.inTransaction()) await sql`rollback`.execute(connection);
          throw error;
        }
        group.settle();
      })
      .catch((error: unknown) => abort(group, error));

  const run: WriteTransaction = async (work) => {
    const { group, result } = await kysely.connection().execute(async (connection) => {
      if (!open) {
        await sql`begin immediate`.execute(connection);
        const started = newGroup();
        open = started;
        // The end of this turn: the writes that reach the connection before then share the commit.
        setImmediate(() => {
          lastCommit = commit(started);
        });
      }
      const member = open;
      await sql`savepoint folio_write`.execute(connection);
      try {
        const value = await work(connection);
        await sql`release folio_write`.execute(connection);
        return { group: member, result: value };
      } catch (error) {
        if (engine.inTransaction()) {
          await sql`rollback to folio_write`.execute(connection);
          await sql`release folio_write`.execute(connection);
        } else {
          abort(member, error);
        }
        throw error;
      }
    });
    await group.committed;
    return result;
  };

  return {
    run,
    /** Waits for the open group's commit (before the connection closes). */
    async flush() {
      while (open) await open.committed.catch(() => undefined);
      await lastCommit;
    },
  };
}
