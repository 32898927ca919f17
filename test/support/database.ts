import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { ulid } from 'ulid';
import { migrationLockKey } from '../../src/db/migrate.ts';

/** A database of the suite's own, on the engine the vitest project names, and how to drop it. */
export interface TestDatabase {
  kind: 'sqlite' | 'postgres';
  url: string;
  drop(): Promise<void>;
}

export const testDatabaseKind = (process.env.FOLIO_TEST_DB ?? 'sqlite') as 'sqlite' | 'postgres';

export async function createTestDatabase(): Promise<TestDatabase> {
  if (testDatabaseKind === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-test-'));
    return { kind: 'sqlite', url: `file:${path.join(dir, 'folio.db')}`, drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
  }
  const serverUrl = process.env.FOLIO_TEST_POSTGRES_URL;
  if (!serverUrl) throw new Error('FOLIO_TEST_POSTGRES_URL is not set');
  const schema = `t_${ulid().toLowerCase()}`;
  await withClient(serverUrl, (client) => client.query(`create schema ${schema}`));
  const url = new URL(serverUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    kind: 'postgres',
    url: url.toString(),
    // Kysely's migrator reads the catalogue of every schema; a schema dropped under it fails another
    // suite's migration, so drops wait for the migration lock as migrations do.
    drop: () =>
      withClient(serverUrl, async (client) => {
        await client.query(`select pg_advisory_lock(${migrationLockKey})`);
        try {
          await client.query(`drop schema ${schema} cascade`);
        } finally {
          await client.query(`select pg_advisory_unlock(${migrationLockKey})`);
        }
      }),
  };
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
