import pg from 'pg';
import pino from 'pino';
import { createToken } from '../src/auth/operations.ts';
import { configuredBaseUrl, loadConfig } from '../src/config.ts';
import { systemClock } from '../src/core/clock.ts';
import { systemPrincipal, type Context } from '../src/core/context.ts';
import { runOperation } from '../src/core/operation.ts';
import { roles } from '../src/core/roles.ts';
import { openDatabase } from '../src/db/connection.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { localStorage } from '../src/media/storage/local.ts';
import { createUser } from '../src/users/operations.ts';
import { EntryListeners } from '../src/content/listeners.ts';

/** Runs `work` as the operator on the bench's database, migrated first (what seeding needs). */
export async function withBenchContext<T>(databaseUrl: string, work: (ctx: Context) => Promise<T>): Promise<T> {
  const config = loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' });
  const db = await openDatabase(config.database);
  try {
    await migrateToLatest(db);
    return await work({ db, clock: systemClock, config, log: pino({ level: 'silent' }), principal: systemPrincipal, entryListeners: EntryListeners.of(), storage: localStorage(config.mediaDir), baseUrl: configuredBaseUrl(config) });
  } finally {
    await db.close();
  }
}

/** An admin and a token holding every scope for them. */
export async function benchAdmin(ctx: Context, email: string): Promise<{ id: string; token: string }> {
  const { item: admin } = await runOperation(createUser, ctx, () => ({ email, name: 'Bench admin', role: roles.admin }));
  const { token } = await runOperation(createToken, ctx, () => ({ userId: admin.id, name: 'bench', scopes: ['admin' as const] }));
  return { id: admin.id, token };
}

/** A new schema of its own on the PostgreSQL server, and the DATABASE_URL that works in it. */
export async function newPostgresSchema(serverUrl: string, schema: string): Promise<string> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  await client.query(`create schema ${schema}`);
  await client.end();
  const url = new URL(serverUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}
