import { sql, type Kysely } from 'kysely';

/**
 * Sign-in (src/auth/, decisions/0021): browser sessions, passkeys and their WebAuthn challenges, magic
 * links, invitations, rate-limit counters and the first-run setup. Every secret a browser or a mail
 * carries (session token, link token, invitation token, setup secret) is stored only as its SHA-256
 * hash; a WebAuthn challenge is no secret (the options show it) and is kept as it is.
 */
export async function up(db: Kysely<any>): Promise<void> { // eslint-disable-line @typescript-eslint/no-explicit-any -- the schema as it was then
  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('token_hash', 'text', (column) => column.notNull().unique())
    .addColumn('user_id', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (column) => column.notNull())
    // Moved forward as the session is used (at most once a minute); idle expiry counts from here.
    .addColumn('last_seen_at', 'text', (column) => column.notNull())
    // The absolute end, whatever the use.
    .addColumn('expires_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();
  await db.schema.createIndex('sessions_expires').on('sessions').column('expires_at').execute();

  await db.schema
    .createTable('passkeys')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('user_id', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
    // The WebAuthn credential id (base64url), what an assertion names.
    .addColumn('credential_id', 'text', (column) => column.notNull().unique())
    // The COSE public key, base64url.
    .addColumn('public_key', 'text', (column) => column.notNull())
    .addColumn('counter', 'bigint', (column) => column.notNull())
    // JSON array of transports the browser reported (usb, internal, hybrid…).
    .addColumn('transports', 'text', (column) => column.notNull())
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('last_used_at', 'text')
    .execute();
  await db.schema.createIndex('passkeys_user').on('passkeys').columns(['user_id', 'id']).execute();

  await db.schema
    .createTable('webauthn_challenges')
    .addColumn('challenge', 'text', (column) => column.primaryKey())
    // `authentication` or `registration`.
    .addColumn('purpose', 'text', (column) => column.notNull())
    // Registration: whose passkey it will be. Null for sign-in (the assertion names the user).
    .addColumn('user_id', 'text', (column) => column.references('users.id').onDelete('cascade'))
    .addColumn('expires_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('webauthn_challenges_expires').on('webauthn_challenges').column('expires_at').execute();

  await db.schema
    .createTable('magic_links')
    .addColumn('token_hash', 'text', (column) => column.primaryKey())
    .addColumn('user_id', 'text', (column) => column.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('expires_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('magic_links_user').on('magic_links').column('user_id').execute();

  await db.schema
    .createTable('invitations')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('token_hash', 'text', (column) => column.notNull().unique())
    .addColumn('email', 'text', (column) => column.notNull())
    .addColumn('role', 'integer', (column) => column.notNull())
    .addColumn('invited_by', 'text', (column) => column.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('expires_at', 'text', (column) => column.notNull())
    .execute();
  await db.schema.createIndex('invitations_email').on('invitations').column('email').execute();

  // Fixed windows: `count` requests since `window_started_at`, per bucket key (limit kind and who).
  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'text', (column) => column.primaryKey())
    .addColumn('window_started_at', 'text', (column) => column.notNull())
    .addColumn('count', 'integer', (column) => column.notNull())
    .execute();

  // One row once the first admin exists through the setup page or `folio admin create`.
  await db.schema
    .createTable('setup_state')
    .addColumn('id', 'integer', (column) => column.primaryKey())
    .addColumn('completed_at', 'text', (column) => column.notNull())
    .execute();
  // The secrets of the setup links servers printed at start; any of them opens the setup page.
  await db.schema
    .createTable('setup_secrets')
    .addColumn('secret_hash', 'text', (column) => column.primaryKey())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .execute();
  // An installation that already has users was set up before setup existed.
  await sql`insert into setup_state (id, completed_at) select 1, min(created_at) from users having count(*) > 0`.execute(db);
}
