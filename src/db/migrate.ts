import { sql, type Kysely } from 'kysely';
import { Migrator, type Migration } from 'kysely/migration';
import type { Db } from './connection.ts';
import type { Database } from './types.ts';
import * as platform from './migrations/0001_platform.ts';
import * as content from './migrations/0002_content.ts';
import { readerSortIndexes } from './migrations/0003_reader_sort_indexes.ts';
import * as jobs from './migrations/0004_jobs.ts';
import * as media from './migrations/0005_media.ts';
import * as taxonomies from './migrations/0006_taxonomies.ts';
import * as siteStructure from './migrations/0007_site_structure.ts';
import { searchTables } from './migrations/0008_search.ts';
import * as signIn from './migrations/0009_sign_in.ts';
import * as oauth from './migrations/0010_oauth.ts';
import * as plugins from './migrations/0011_plugins.ts';
import * as importTables from './migrations/0012_import.ts';
import * as importMedia from './migrations/0013_import_media.ts';
import * as importConnections from './migrations/0014_import_connections.ts';
import * as webhookOutboxIndexes from './migrations/0015_webhook_outbox_indexes.ts';
import { pluginEvents } from './migrations/0016_plugin_events.ts';
import * as pluginEventData from './migrations/0017_plugin_event_data.ts';
import * as previewGrants from './migrations/0018_preview_grants.ts';
import * as mediaUsage from './migrations/0019_media_usage.ts';
import { changeNotifications } from './migrations/0020_change_notifications.ts';
import { searchFilterIndex } from './migrations/0021_search_filter_index.ts';
import * as userLastSignIn from './migrations/0022_user_last_sign_in.ts';
import * as webhookResponseExcerpt from './migrations/0023_webhook_response_excerpt.ts';
import * as termOrder from './migrations/0024_term_order.ts';
import * as jobsByKind from './migrations/0025_jobs_by_kind.ts';
import { redirects } from './migrations/0026_redirects.ts';
import * as comments from './migrations/0027_comments.ts';
import * as entrySeo from './migrations/0028_entry_seo.ts';
import { commentNotifications } from './migrations/0029_comment_notifications.ts';
import * as siteRestores from './migrations/0030_site_restores.ts';
import * as siteRestoreState from './migrations/0031_site_restore_state.ts';
import * as siteMoves from './migrations/0032_site_moves.ts';
import type { Dialect } from './connection.ts';

/** Forward-only migrations, in code, in order; a few write engine-specific DDL. */
export function migrations(dialect: Dialect): Record<string, Migration> {
  return {
    '0001_platform': platform,
    '0002_content': content,
    '0003_reader_sort_indexes': readerSortIndexes(dialect),
    '0004_jobs': jobs,
    '0005_media': media,
    '0006_taxonomies': taxonomies,
    '0007_site_structure': siteStructure,
    '0008_search': searchTables(dialect),
    '0009_sign_in': signIn,
    '0010_oauth': oauth,
    '0011_plugins': plugins,
    '0012_import': importTables,
    '0013_import_media': importMedia,
    '0014_import_connections': importConnections,
    '0015_webhook_outbox_indexes': webhookOutboxIndexes,
    '0016_plugin_events': pluginEvents(dialect),
    '0017_plugin_event_data': pluginEventData,
    '0018_preview_grants': previewGrants,
    '0019_media_usage': mediaUsage,
    '0020_change_notifications': changeNotifications(dialect),
    '0021_search_filter_index': searchFilterIndex(dialect),
    '0022_user_last_sign_in': userLastSignIn,
    '0023_webhook_response_excerpt': webhookResponseExcerpt,
    '0024_term_order': termOrder,
    '0025_jobs_by_kind': jobsByKind,
    '0026_redirects': redirects(dialect),
    '0027_comments': comments,
    '0028_entry_seo': entrySeo,
    '0029_comment_notifications': commentNotifications(dialect),
    '0030_site_restores': siteRestores,
    '0031_site_restore_state': siteRestoreState,
    '0032_site_moves': siteMoves,
  };
}

/**
 * Applies pending migrations; returns the names applied. When several processes start together on
 * one database, exactly one migrates and the others wait, then find nothing left to do. The lock is
 * held on one connection around the whole run, because Kysely creates its own bookkeeping tables
 * before taking its lock (two first starts would race there), and takes no lock at all on SQLite.
 */
export async function migrateToLatest(db: Db): Promise<string[]> {
  return db.kysely.connection().execute((connection) =>
    db.dialect === 'postgres'
      ? withAdvisoryLock(connection, async () => runMigrator(connection, db.dialect, await currentSchema(connection)))
      : inImmediateTransaction(connection, () => runMigrator(connection, db.dialect)),
  );
}

// An arbitrary constant naming Folio's migration lock among the database's advisory locks.
export const migrationLockKey = 7_346_121_905_113n;

async function withAdvisoryLock<T>(connection: Kysely<Database>, work: () => Promise<T>): Promise<T> {
  await sql`select pg_advisory_lock(${sql.lit(migrationLockKey)})`.execute(connection);
  try {
    return await work();
  } finally {
    await sql`select pg_advisory_unlock(${sql.lit(migrationLockKey)})`.execute(connection);
  }
}

/**
 * SQLite: BEGIN IMMEDIATE takes the write lock at once, so a second process waits (busy timeout); a
 * failing migration rolls back whole, since SQLite's DDL is transactional.
 */
async function inImmediateTransaction<T>(connection: Kysely<Database>, work: () => Promise<T>): Promise<T> {
  await sql`begin immediate`.execute(connection);
  try {
    const result = await work();
    await sql`commit`.execute(connection);
    return result;
  } catch (error) {
    await sql`rollback`.execute(connection);
    throw error;
  }
}

/**
 * The schema Folio's tables live in (the search path's first). Kysely must be told: without it, it
 * looks for its bookkeeping tables in every schema and skips creating them when another schema of
 * the same database has them.
 */
async function currentSchema(connection: Kysely<Database>): Promise<string> {
  const result = await sql<{ schema: string }>`select current_schema() as schema`.execute(connection);
  return result.rows[0]!.schema;
}

async function runMigrator(kysely: Kysely<Database>, dialect: Dialect, schema?: string): Promise<string[]> {
  const migrator = new Migrator({
    db: kysely,
    provider: { getMigrations: async () => migrations(dialect) },
    migrationTableName: 'folio_migrations',
    migrationLockTableName: 'folio_migrations_lock',
    ...(schema === undefined ? {} : { migrationTableSchema: schema }),
  });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error) {
    const failed = results.find((result) => result.status === 'Error');
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${(error as Error).message ?? String(error)}`);
  }
  return results.filter((result) => result.status === 'Success').map((result) => result.migrationName);
}
