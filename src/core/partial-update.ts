/**
 * The columns a partial update sets, stamped with `updated_at`. A column given `undefined` is a field
 * the request left out: it is dropped, so the column keeps its value both in the database and in the
 * row the update answers with (`{ ...row, ...changes }`).
 */
export function partialUpdate<T extends Record<string, unknown>>(columns: T, updatedAt: string): { [K in keyof T]?: Exclude<T[K], undefined> } & { updated_at: string } {
  const changes: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(columns)) if (value !== undefined) changes[column] = value;
  changes.updated_at = updatedAt;
  return changes as { [K in keyof T]?: Exclude<T[K], undefined> } & { updated_at: string };
}

/** A JSON column's new text, or undefined when the request left the field out. */
export function jsonColumn(value: unknown): string | undefined {
  return value === undefined ? undefined : JSON.stringify(value);
}
