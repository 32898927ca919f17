import type { Db } from '../db/connection.ts';
import { addFieldColumn, createEntryTable, setFieldIndexes } from '../db/entry-tables.ts';
import { columnKind, sortKind } from '../fields/columns.ts';
import type { FieldDefinition } from '../fields/definition.ts';
import type { LoadedCollection } from './store.ts';

/** A field's column in its collection's entry table, with the indexes its type and rules ask for. */
export async function addFieldStorage(db: Db, table: string, field: Pick<FieldDefinition, 'id' | 'slug' | 'type' | 'unique'>): Promise<void> {
  await addFieldColumn(db, table, field.slug, columnKind(field.type));
  await setFieldIndexes(db, table, field.slug, field.id, { sort: sortKind(field.type), unique: field.unique });
}

/** A collection's entry table as its definition and fields describe it (a restored collection's). */
export async function createCollectionStorage(db: Db, collection: LoadedCollection): Promise<void> {
  await createEntryTable(db, collection.tableName);
  for (const field of collection.fields) await addFieldStorage(db, collection.tableName, field);
}
