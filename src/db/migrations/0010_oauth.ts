import type { Kysely } from 'kysely';

/**
 * OAuth 2.1 for MCP clients (src/oauth/, decisions/0022): clients (registered, or cached from their
 * metadata documents), grants (a user's consent to a client: the connected apps), the pending
 * consent requests of the consent page, authorization codes, device codes and tokens. Every secret
 * (code, device code, token, consent request id) is stored only as its SHA-256 hash.
 */
export async function up(db: Kysely<any>): Promise<void> { // eslint-disable-line @typescript-eslint/no-explicit-any -- the schema as it was then
  await db.schema
    .createTable('oauth_clients')
    // A registered client's random id, or the https URL of its metadata document.
    .addColumn('id', 'text', (column) => column.primaryKey())
    // `registered` (RFC 7591) or `metadata` (a client-ID metadata document, refetched once stale).
    .addColumn('source', 'text', (column) => column.notNull())
    .addColumn('name', 'text', (column) => column.notNull())
    // JSON array of redirect URIs.
    .addColumn('redirect_uris', 'text', (column) => column.notNull())
    // JSON object: the client metadata as registered or fetched (client_uri, logo_uri…).
    .addColumn('metadata', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    // Metadata documents: when the cached copy must be fetched again. Null for registered clients.
    .addColumn('stale_at', 'text')
    .execute();

  await db.schema
    .createTable('oauth_grants')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('user_id', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
    .addColumn('client_id', 'text', (column) => column.notNull().references('oauth_clients.id').onDelete('cascade'))
    // The scopes the user consented to, space-separated; a request within them needs no new consent.
    .addColumn('scopes', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('last_used_at', 'text')
    .addUniqueConstraint('oauth_grants_user_client', ['user_id', 'client_id'])
    .execute();

  await db.schema
    .createTable('oauth_consent_requests')
    .addColumn('id_hash', 'text', (column) => column.primaryKey())
    .addColumn('user_id', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
    .addColumn('client_id', 'text', (column) => column.notNull().references('oauth_clients.id').onDelete('cascade'))
    // JSON: the validated authorization request (redirect URI, state, challenge, scopes, audience).
    .addColumn('request', 'text', (column) => column.notNull())
    .addColumn('expires_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('oauth_consent_requests_expires').on('oauth_consent_requests').column('expires_at').execute();

  await db.schema
    .createTable('oauth_codes')
    .addColumn('code_hash', 'text', (column) => column.primaryKey())
    .addColumn('grant_id', 'text', (column) => column.notNull().references('oauth_grants.id').onDelete('cascade'))
    // As the authorization request gave it ('' when it named none): the token request must repeat it.
    .addColumn('redirect_uri', 'text', (column) => column.notNull())
    .addColumn('code_challenge', 'text', (column) => column.notNull())
    .addColumn('scopes', 'text', (column) => column.notNull())
    .addColumn('audience', 'text', (column) => column.notNull())
    .addColumn('expires_at', 'text', (column) => column.notNull())
    // Set when the code is exchanged: a second exchange revokes the tokens the first one got.
    .addColumn('family_id', 'text')
    .execute();

  await db.schema
    .createTable('oauth_device_codes')
    .addColumn('device_code_hash', 'text', (column) => column.primaryKey())
    .addColumn('user_code', 'text', (column) => column.notNull().unique())
    .addColumn('client_id', 'text', (column) => column.notNull().references('oauth_clients.id').onDelete('cascade'))
    .addColumn('scopes', 'text', (column) => column.notNull())
    .addColumn('audience', 'text', (column) => column.notNull())
    // `pending`, `approved` or `denied`.
    .addColumn('status', 'text', (column) => column.notNull())
    // Who approved (and the grant made); the scopes are then the approved ones.
    .addColumn('grant_id', 'text', (column) => column.references('oauth_grants.id').onDelete('cascade'))
    .addColumn('interval_seconds', 'integer', (column) => column.notNull())
    .addColumn('last_polled_at', 'text')
    .addColumn('expires_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('oauth_device_codes_expires').on('oauth_device_codes').column('expires_at').execute();

  // Access and refresh tokens. A family is what one authorization started: every rotation stays in it,
  // and reuse of a spent refresh token deletes the whole family.
  await db.schema
    .createTable('oauth_tokens')
    .addColumn('token_hash', 'text', (column) => column.primaryKey())
    // `access` or `refresh`.
    .addColumn('kind', 'text', (column) => column.notNull())
    .addColumn('family_id', 'text', (column) => column.notNull())
    .addColumn('grant_id', 'text', (column) => column.notNull().references('oauth_grants.id').onDelete('cascade'))
    .addColumn('scopes', 'text', (column) => column.notNull())
    // `mcp` or `api`: the resource (RFC 8707) the token may be used at.
    .addColumn('audience', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('expires_at', 'text', (column) => column.notNull())
    // Refresh tokens: when spent, and the successor pair sealed with a key only the spent token gives,
    // so a parallel refresh in the grace window gets the same pair.
    .addColumn('used_at', 'text')
    .addColumn('successor', 'text')
    .execute();
  await db.schema.createIndex('oauth_tokens_family').on('oauth_tokens').column('family_id').execute();
  await db.schema.createIndex('oauth_tokens_grant').on('oauth_tokens').column('grant_id').execute();
  await db.schema.createIndex('oauth_tokens_expires').on('oauth_tokens').column('expires_at').execute();
}
