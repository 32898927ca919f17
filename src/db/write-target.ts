/** What a write to a table whose name cannot be told (DDL, a raw statement) is counted under: every table. */
export const anyTable = '*';

/**
 * The table a statement writes, for the change stamps (read-cache.ts): undefined for a read or for
 * transaction control, `anyTable` for anything else that may write (DDL; a common table expression
 * that inserts, updates or deletes).
 */
export function writeTarget(text: string): string | undefined {
  if (/^\s*(begin|start\s+transaction|commit|rollback|savepoint|release|select|set|show|listen|unlisten)\b/i.test(text)) return undefined;
  const match = /^\s*(?:insert\s+into|update|delete\s+from)\s+"?([\w]+)"?/i.exec(text);
  if (match) return match[1]!.toLowerCase();
  if (/^\s*with\b/i.test(text) && !/\b(insert\s+into|update|delete\s+from)\b/i.test(text)) return undefined;
  return anyTable;
}
