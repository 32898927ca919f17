/**
 * What a site archive holds, table by table (docs/decisions/0061), in the order a restore inserts
 * them: every table a row references comes before the row. Entry tables (one per collection) go
 * where `entryTables` stands. Every table a migration makes is in exactly one of the three lists
 * below (test/site-archive-tables.test.ts checks it), so a new table cannot be left out unnoticed.
 */

/** One archived table: its key (what a conflict is reported by) and what else a restore must know. */
export interface ArchivedTable {
  name: string;
  key: readonly string[];
  /** A column naming another row of the same table: the export writes parents before their children. */
  parent?: string;
  /** Columns holding a user's id: a restore maps them when an archive's user is one the target already has under another id. */
  userColumns?: readonly string[];
  /** Rows a fresh install makes by itself (settings, plugin states): a restore that is not a merge replaces them. */
  replaces?: true;
}

/** Where the entry tables go among the others: after what they name, before what names them. */
export const entryTables = '<entry tables>';

/** The columns of every entry table that hold a user's id. */
export const entryUserColumns = ['_author_id'] as const;

const table = (name: string, key: readonly string[] = ['id'], more: Omit<ArchivedTable, 'name' | 'key'> = {}): ArchivedTable => ({ name, key, ...more });

/** The site: what the archive always holds, as NDJSON members in this order. */
export const recordTables: readonly (ArchivedTable | typeof entryTables)[] = [
  table('users'),
  table('settings', ['key'], { replaces: true }),
  table('setup_state'),
  table('collections'),
  table('fields'),
  table('taxonomies'),
  table('taxonomy_collections', ['taxonomy_id', 'collection_id']),
  table('terms', ['id'], { parent: 'parent_id' }),
  table('bylines', ['id'], { userColumns: ['user_id'] }),
  table('media', ['id'], { userColumns: ['created_by'] }),
  table('media_derivatives', ['media_id', 'variant']),
  entryTables,
  table('revisions', ['id'], { userColumns: ['author_id'] }),
  table('entry_terms', ['term_id', 'entry_id']),
  table('media_usage', ['media_id', 'entry_id', 'field_id']),
  table('menus'),
  table('menu_items', ['id'], { parent: 'parent_id' }),
  table('sections'),
  table('widget_areas'),
  table('widgets'),
  table('redirects'),
  table('redirect_hits', ['redirect_id']),
  table('comments', ['id'], { parent: 'parent_id', userColumns: ['author_user_id'] }),
  table('plugin_states', ['plugin_id'], { replaces: true }),
  // Includes each subscription's signing secret: a secret shared with the receiver, not a way into Folio.
  table('webhook_subscriptions'),
  table('oauth_clients'),
  table('audit_events', ['id'], { userColumns: ['actor_id'] }),
  // What imports made of each source item: a later import of the same export finds them and duplicates nothing.
  table('import_items', ['source_key', 'kind', 'source_id']),
];

/**
 * Password-equivalents: whoever holds one signs in (or acts) as its user. In an archive only with
 * `--full`, encrypted under a passphrase, in this order, after the records they name.
 */
export const secretTables: readonly ArchivedTable[] = [
  table('api_tokens', ['id'], { userColumns: ['user_id'] }),
  table('sessions', ['id'], { userColumns: ['user_id'] }),
  table('passkeys', ['id'], { userColumns: ['user_id'] }),
  table('magic_links', ['token_hash'], { userColumns: ['user_id'] }),
  table('invitations', ['id'], { userColumns: ['invited_by'] }),
  table('oauth_grants', ['id'], { userColumns: ['user_id'] }),
  table('oauth_consent_requests', ['id_hash'], { userColumns: ['user_id'] }),
  table('oauth_codes', ['code_hash']),
  table('oauth_device_codes', ['device_code_hash']),
  table('oauth_tokens', ['token_hash']),
  table('preview_grants', ['id'], { userColumns: ['created_by'] }),
];

/** Never archived, and why: each is rebuilt, transient, or a one-time secret that expires in minutes. */
export const leftOutTables: Readonly<Record<string, string>> = {
  folio_migrations: 'the schema level is in the manifest; the target runs its own migrations',
  folio_migrations_lock: 'the migrator’s own lock',
  jobs: 'background work; a restore queues the publication of scheduled entries again',
  search_documents: 'the search index, rebuilt after a restore',
  search_title_keys: 'the search index, rebuilt after a restore',
  rate_limits: 'counting windows of minutes',
  webauthn_challenges: 'one sign-in’s challenge, for minutes',
  setup_secrets: 'the setup page’s one-time secret',
  media_upload_grants: 'a direct upload’s one-time grant, for minutes',
  import_connections: 'a WordPress.com connection being made, for minutes',
  import_analyses: 'uploaded exports awaiting an import, kept for a day',
  import_notes: 'the reports of import jobs, which are not archived',
  plugin_events: 'the plugins’ event queue: the changes it holds are in the archive already',
  webhook_deliveries: 'the webhook outbox: a restored site must not send its deliveries again',
  webhook_attempts: 'the log of the webhook outbox’s deliveries',
  site_restores: 'the progress of a restore under way in this database',
  site_moves: 'the moves into this database (folio move), which a catch-up looks for',
};

/** The archived tables by name, records and secrets. */
export function archivedTable(name: string): ArchivedTable | undefined {
  return [...recordTables, ...secretTables].find((candidate): candidate is ArchivedTable => typeof candidate !== 'string' && candidate.name === name);
}
