import { sql, type Kysely } from 'kysely';
import pino from 'pino';
import { configuredBaseUrl, loadConfig } from '../src/config.ts';
import { localStorage } from '../src/media/storage/local.ts';
import { systemClock } from '../src/core/clock.ts';
import { systemPrincipal } from '../src/core/context.ts';
import { runOperation } from '../src/core/operation.ts';
import { listEntries } from '../src/content/operations.ts';
import { openDatabase } from '../src/db/connection.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { createCollection, createField, deleteField } from '../src/schema/operations.ts';
import { loadCollection } from '../src/schema/store.ts';
import { EntryListeners } from '../src/content/listeners.ts';
import { insertEntries } from './bulk-entries.ts';

/**
 * Schema changes on a large collection (issue 3: adding or removing a field on 100,000 entries takes
 * seconds and never touches other fields' data), and the first page of a list sorted by a field.
 * The entries are written in bulk, straight into the entry table, to keep the seeding short.
 */
export interface SchemaChangeFigures {
  entries: number;
  addFieldMs: number;
  removeFieldMs: number;
  sortedPageMs: number;
  otherFieldsIntact: boolean;
}

export async function measureSchemaChanges(databaseUrl: string, entries: number): Promise<SchemaChangeFigures> {
  const config = loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' });
  const db = await openDatabase(config.database);
  try {
    await migrateToLatest(db);
    const ctx = { db, clock: systemClock, config, log: pino({ level: 'silent' }), principal: systemPrincipal, entryListeners: EntryListeners.of(), storage: localStorage(config.mediaDir), baseUrl: configuredBaseUrl(config) };
    const slug = `large_${Date.now().toString(36)}`;
    await runOperation(createCollection, ctx, () => ({ slug, label: 'Large' }));
    await runOperation(createField, ctx, () => ({ collection: slug, slug: 'title', label: 'Title', type: 'string' as const }));
    await runOperation(createField, ctx, () => ({ collection: slug, slug: 'rank', label: 'Rank', type: 'integer' as const }));
    const table = (await loadCollection(db, slug))!.tableName;
    const kysely = db.kysely as unknown as Kysely<Record<string, Record<string, unknown>>>;
    await insertEntries(db, table, entries, (n) => ({ title: `Entry ${n}`, rank: n % 1000 }));
    // Statistics as a live database has them soon after bulk writes (autovacuum, PRAGMA optimize).
    await sql`analyze`.execute(db.kysely);
    const timed = async (work: () => Promise<unknown>) => {
      const started = performance.now();
      await work();
      return performance.now() - started;
    };
    const addFieldMs = await timed(() => runOperation(createField, ctx, () => ({ collection: slug, slug: 'subtitle', label: 'Subtitle', type: 'string' as const })));
    const removeFieldMs = await timed(() => runOperation(deleteField, ctx, () => ({ collectionSlug: slug, fieldSlug: 'subtitle' })));
    const sortedPageMs = await timed(() => runOperation(listEntries, ctx, () => ({ collection: slug, orderBy: 'rank', order: 'asc' as const, limit: 50 })));
    const sample = await kysely.selectFrom(table).select(['title', 'rank']).where('_slug', '=', `entry-${entries - 1}`).executeTakeFirst();
    const otherFieldsIntact = sample?.title === `Entry ${entries - 1}` && Number(sample?.rank) === (entries - 1) % 1000;
    return { entries, addFieldMs, removeFieldMs, sortedPageMs, otherFieldsIntact };
  } finally {
    await db.close();
  }
}
