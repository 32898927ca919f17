import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../src/db/connection.ts';
import { inTransaction } from '../src/db/dialect.ts';
import { createTestApp, type TestApp } from './support/harness.ts';

/**
 * Write transactions (db/dialect.ts inTransaction). On SQLite the writes of one turn of the event
 * loop share a commit (db/group-commit.ts, decisions/0032); each must still commit or roll back on
 * its own terms, and be on disk before its caller hears of it.
 */
describe('write transactions', () => {
  let t: TestApp;
  let other: Db;
  beforeAll(async () => {
    t = await createTestApp();
    // A connection of its own, as another process has: it sees only what is committed.
    other = await openDatabase(t.config.database);
  });
  afterAll(async () => {
    await other.close();
    await t.close();
  });

  const write = (key: string) => (tx: Db) => tx.kysely.insertInto('settings').values({ key, value: '"x"', updated_at: new Date().toISOString() }).execute();
  const keysSeenBy = async (db: Db, prefix: string) =>
    (await db.kysely.selectFrom('settings').select('key').where('key', 'like', `${prefix}%`).orderBy('key').execute()).map((row) => row.key);

  it('rolls back only the writes that fail among those made together, and commits the others', async () => {
    const statements = await t.statementsDuring(async () => {
      const outcomes = await Promise.allSettled([
        inTransaction(t.db, write('together-1')),
        inTransaction(t.db, async (tx) => {
          await write('together-2')(tx);
          throw new Error('refused after writing');
        }),
        // The same key again: a constraint fails on the statement itself.
        inTransaction(t.db, write('together-1')),
        inTransaction(t.db, write('together-4')),
      ]);
      const statuses = outcomes.map((outcome) => outcome.status);
      // SQLite runs the four in the order asked; PostgreSQL's pool may start the third before the
      // first, and then of the two writes of together-1 the third is the one that commits.
      if (t.db.dialect === 'sqlite') expect(statuses).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
      else expect([statuses[1], statuses[3], [statuses[0], statuses[2]].sort()]).toEqual(['rejected', 'fulfilled', ['fulfilled', 'rejected']]);
    });
    expect(await keysSeenBy(t.db, 'together-')).toEqual(['together-1', 'together-4']);
    expect(await keysSeenBy(other, 'together-')).toEqual(['together-1', 'together-4']);
    const commits = statements.filter((statement) => /^commit$/i.test(statement.trim()));
    // SQLite writes the four in one commit; PostgreSQL commits each that succeeded.
    expect(commits).toHaveLength(t.db.dialect === 'sqlite' ? 1 : 2);
  });

  it('answers a write only once it is committed, and runs its after-commit callbacks then', async () => {
    const seenInCallback: string[][] = [];
    let written!: () => void;
    let release!: () => void;
    const wrote = new Promise<void>((resolve) => (written = resolve));
    const held = new Promise<void>((resolve) => (release = resolve));
    const pending = inTransaction(t.db, async (tx) => {
      await write('durable-1')(tx);
      tx.afterCommit(() => {
        void keysSeenBy(other, 'durable-').then((keys) => seenInCallback.push(keys));
      });
      written();
      // Held open until the other connection has looked.
      await held;
    });
    await wrote;
    // Not yet committed: another connection does not see it.
    expect(await keysSeenBy(other, 'durable-')).toEqual([]);
    release();
    await pending;
    expect(await keysSeenBy(other, 'durable-')).toEqual(['durable-1']);
    await expect.poll(() => seenInCallback).toEqual([['durable-1']]);
  });

  it('fails every write the engine rolled back, and goes on with the next', async () => {
    const outcomes = await Promise.allSettled([
      inTransaction(t.db, write('lost-1')),
      // Ends the transaction under the writes made with it, as SQLite does on its own after an I/O error.
      inTransaction(t.db, async (tx) => {
        await sql`rollback`.execute(tx.kysely);
      }),
      inTransaction(t.db, write('lost-3')),
    ]);
    if (t.db.dialect === 'sqlite') {
      // The first shared the transaction that ended: it is reported lost, not committed.
      expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected', 'fulfilled']);
      expect(await keysSeenBy(other, 'lost-')).toEqual(['lost-3']);
    } else {
      // Each transaction is its own: the rollback takes only its own.
      expect(outcomes[0]!.status).toBe('fulfilled');
      expect(await keysSeenBy(other, 'lost-')).toEqual(['lost-1', 'lost-3']);
    }
    expect(await keysSeenBy(t.db, 'lost-')).toEqual(await keysSeenBy(other, 'lost-'));
  });
});
