import type { Generated } from 'kysely';

/**
 * Table shapes as Kysely sees them. Portable column types on both engines: text ids, ISO 8601 text
 * timestamps (they sort as strings), integer 0/1 booleans, JSON as text (docs/decisions/0002).
 */
export interface UsersTable {
  id: string;
  email: string;
  name: string;
  role: number;
  disabled: number;
  created_at: string;
  updated_at: string;
  /** Stamped by every sign-in (auth/sessions.ts startSession); null until the first. */
  last_sign_in_at: string | null;
}

export interface ApiTokensTable {
  id: string;
  user_id: string;
  name: string;
  token_hash: string;
  scopes: string;
  expires_at: string | null;
  last_used_at: string | null;
  created_at: string;
}

export interface SettingsTable {
  key: string;
  value: string;
  updated_at: string;
}

export interface CollectionsTable {
  id: string;
  slug: string;
  label: string;
  label_singular: string | null;
  description: string | null;
  icon: string | null;
  /** JSON array of feature names. */
  supports: string;
  table_name: string;
  /** Where entries are served, e.g. `/blog/{slug}`; menu items follow it. Null: no URL. */
  url_pattern: string | null;
  /** JSON comment settings (src/comments/settings.ts); null: comments off. */
  comments: string | null;
  created_at: string;
  updated_at: string;
}

export interface FieldsTable {
  id: string;
  collection_id: string;
  slug: string;
  label: string;
  type: string;
  required: number;
  is_unique: number;
  /** JSON, null when the field has no default. */
  default_value: string | null;
  validation: string;
  options: string;
  searchable: number;
  translatable: number;
  sort_order: number;
  created_at: string;
  updated_at: string;
}

export interface RevisionsTable {
  id: string;
  collection_id: string;
  entry_id: string;
  /** JSON object of field values. */
  data: string;
  slug: string;
  author_id: string | null;
  created_at: string;
}

/** Background work (src/jobs/): JSON as text, timestamps as ISO text like every other table. */
export interface JobsTable {
  id: string;
  kind: string;
  payload: string;
  state: string;
  run_at: string;
  attempts: number;
  max_attempts: number;
  unique_key: string | null;
  lease_owner: string | null;
  lease_expires_at: string | null;
  heartbeat_at: string | null;
  last_error: string | null;
  progress: string | null;
  result: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  finished_at: string | null;
}

/** The media library (src/media/): a stored file and what it is, from its bytes. */
export interface MediaTable {
  id: string;
  storage_key: string;
  filename: string;
  mime_type: string;
  size: number;
  width: number | null;
  height: number | null;
  alt: string | null;
  caption: string | null;
  /** The title an imported attachment had (migration 0013); null for uploads. */
  title: string | null;
  /** SHA-256 of the bytes, hex; null while a registered object has not arrived. */
  content_hash: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * Which entries name which media items (decisions/0045): one row per item, entry and field, kept by
 * an entry listener inside every entry write, so "where is this file used" is an indexed read.
 */
export interface MediaUsageTable {
  media_id: string;
  entry_id: string;
  collection_id: string;
  field_id: string;
}

/** An image made from a media item by a transform, stored once and served from storage after. */
export interface MediaDerivativesTable {
  media_id: string;
  variant: string;
  storage_key: string;
  mime_type: string;
  size: number;
  content_hash: string;
  created_at: string;
}

/** A direct upload to local storage: the signed URL's grant, used once, before it expires. */
export interface MediaUploadGrantsTable {
  id: string;
  secret_hash: string;
  storage_key: string;
  mime_type: string;
  size: number;
  created_by: string | null;
  expires_at: string;
  used_at: string | null;
  created_at: string;
}

/** A preview link's grant (src/preview/, decisions/0046): one entry's draft, readable with the secret until it expires. */
export interface PreviewGrantsTable {
  id: string;
  secret_hash: string;
  collection_id: string;
  entry_id: string;
  created_by: string | null;
  expires_at: string;
  created_at: string;
}

/** Taxonomies (src/taxonomies/): definitions, the collections they apply to, terms and entries' terms. */
export interface TaxonomiesTable {
  id: string;
  name: string;
  label: string;
  label_singular: string | null;
  hierarchical: number;
  /** Where a term's page is served, e.g. `/category/{slug}`; menu items follow it. Null: no URL. */
  url_pattern: string | null;
  created_at: string;
  updated_at: string;
}

export interface TaxonomyCollectionsTable {
  taxonomy_id: string;
  collection_id: string;
}

export interface TermsTable {
  id: string;
  taxonomy_id: string;
  slug: string;
  label: string;
  parent_id: string | null;
  description: string | null;
  /** Place among its siblings, lowest first, ties by slug (migration 0024). */
  sort_order: number;
  created_at: string;
  updated_at: string;
}

export interface EntryTermsTable {
  term_id: string;
  taxonomy_id: string;
  collection_id: string;
  entry_id: string;
  created_at: string;
}

/** Menus (src/menus/): named menus and their items, a tree ordered by `sort_order` among siblings. */
export interface MenusTable {
  id: string;
  name: string;
  label: string;
  created_at: string;
  updated_at: string;
}

export interface MenuItemsTable {
  id: string;
  menu_id: string;
  parent_id: string | null;
  sort_order: number;
  type: string;
  reference_collection: string | null;
  reference_id: string | null;
  label: string;
  url: string | null;
  target: string | null;
  title_attribute: string | null;
  css_classes: string | null;
  description: string | null;
  created_at: string;
  updated_at: string;
}

/** Sections (src/sections/): reusable blocks of Portable Text. */
export interface SectionsTable {
  id: string;
  slug: string;
  title: string;
  /** JSON array of strings. */
  keywords: string;
  /** JSON array of Portable Text blocks. */
  content: string;
  source: string;
  created_at: string;
  updated_at: string;
}

/** Redirects (src/redirects/): old addresses of the site and where they lead now. */
export interface RedirectsTable {
  id: string;
  from_path: string;
  to_target: string;
  to_path: string | null;
  status: number;
  source: string;
  entry_collection: string | null;
  entry_id: string | null;
  target_missing: Generated<number>;
  created_at: string;
  updated_at: string;
}

/** How often each redirect was followed, counted apart from it (migration 0026). */
export interface RedirectHitsTable {
  redirect_id: string;
  hits: number;
  last_hit_at: string;
}

/** Widget areas (src/widgets/) and their widgets, in `sort_order`. */
export interface WidgetAreasTable {
  id: string;
  name: string;
  label: string;
  description: string | null;
  created_at: string;
  updated_at: string;
}

export interface WidgetsTable {
  id: string;
  area_id: string;
  sort_order: number;
  type: string;
  title: string | null;
  /** JSON array of Portable Text blocks, for `content` widgets. */
  content: string | null;
  menu_name: string | null;
  section_slug: string | null;
  created_at: string;
  updated_at: string;
}

/** Sign-in (src/auth/, migration 0009): sessions, passkeys, challenges, links, invitations, limits, setup. */
export interface SessionsTable {
  id: string;
  token_hash: string;
  user_id: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
}

export interface PasskeysTable {
  id: string;
  user_id: string;
  credential_id: string;
  public_key: string;
  /** A bigint column: PostgreSQL's driver hands it back as text. */
  counter: number | string;
  transports: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

export interface WebauthnChallengesTable {
  challenge: string;
  purpose: string;
  user_id: string | null;
  expires_at: string;
}

export interface MagicLinksTable {
  token_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
}

export interface InvitationsTable {
  id: string;
  token_hash: string;
  email: string;
  role: number;
  invited_by: string | null;
  created_at: string;
  expires_at: string;
}

export interface RateLimitsTable {
  key: string;
  window_started_at: string;
  count: number;
}

export interface SetupStateTable {
  id: number;
  completed_at: string;
}

export interface SetupSecretsTable {
  secret_hash: string;
  created_at: string;
}

export interface Database {
  users: UsersTable;
  api_tokens: ApiTokensTable;
  settings: SettingsTable;
  collections: CollectionsTable;
  fields: FieldsTable;
  revisions: RevisionsTable;
  jobs: JobsTable;
  media: MediaTable;
  media_derivatives: MediaDerivativesTable;
  media_upload_grants: MediaUploadGrantsTable;
  preview_grants: PreviewGrantsTable;
  media_usage: MediaUsageTable;
  taxonomies: TaxonomiesTable;
  taxonomy_collections: TaxonomyCollectionsTable;
  terms: TermsTable;
  entry_terms: EntryTermsTable;
  menus: MenusTable;
  menu_items: MenuItemsTable;
  sections: SectionsTable;
  redirects: RedirectsTable;
  redirect_hits: RedirectHitsTable;
  widget_areas: WidgetAreasTable;
  widgets: WidgetsTable;
  search_documents: SearchDocumentsTable;
  search_title_keys: SearchTitleKeysTable;
  sessions: SessionsTable;
  passkeys: PasskeysTable;
  webauthn_challenges: WebauthnChallengesTable;
  magic_links: MagicLinksTable;
  invitations: InvitationsTable;
  rate_limits: RateLimitsTable;
  setup_state: SetupStateTable;
  setup_secrets: SetupSecretsTable;
  oauth_clients: OAuthClientsTable;
  oauth_grants: OAuthGrantsTable;
  oauth_consent_requests: OAuthConsentRequestsTable;
  oauth_codes: OAuthCodesTable;
  oauth_device_codes: OAuthDeviceCodesTable;
  oauth_tokens: OAuthTokensTable;
  plugin_states: PluginStatesTable;
  webhook_subscriptions: WebhookSubscriptionsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  audit_events: AuditEventsTable;
  plugin_events: PluginEventsTable;
  import_analyses: ImportAnalysesTable;
  import_connections: ImportConnectionsTable;
  import_items: ImportItemsTable;
  import_notes: ImportNotesTable;
  bylines: BylinesTable;
  comments: CommentsTable;
  site_restores: SiteRestoresTable;
  site_moves: SiteMovesTable;
}

export interface OAuthClientsTable {
  id: string;
  source: string;
  name: string;
  redirect_uris: string;
  metadata: string;
  created_at: string;
  stale_at: string | null;
}

export interface OAuthGrantsTable {
  id: string;
  user_id: string;
  client_id: string;
  scopes: string;
  created_at: string;
  last_used_at: string | null;
}

export interface OAuthConsentRequestsTable {
  id_hash: string;
  user_id: string;
  client_id: string;
  request: string;
  expires_at: string;
}

export interface OAuthCodesTable {
  code_hash: string;
  grant_id: string;
  redirect_uri: string;
  code_challenge: string;
  scopes: string;
  audience: string;
  expires_at: string;
  family_id: string | null;
}

export interface OAuthDeviceCodesTable {
  device_code_hash: string;
  user_code: string;
  client_id: string;
  scopes: string;
  audience: string;
  status: string;
  grant_id: string | null;
  interval_seconds: number;
  last_polled_at: string | null;
  expires_at: string;
}

export interface OAuthTokensTable {
  token_hash: string;
  kind: string;
  family_id: string;
  grant_id: string;
  scopes: string;
  audience: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  successor: string | null;
}

/**
 * The full-text index (src/search/, docs/decisions/0020): one row per indexed version of an entry.
 * Each engine adds its own columns (SQLite: an integer `id` shared with its FTS5 tables and `stemmed`;
 * PostgreSQL: `config` and `vector`), written only by src/db/search-*.ts.
 */
export interface SearchDocumentsTable {
  entry_id: string;
  /** `live` (what readers see), `working` (the staged draft), or `both` when they are the same. */
  variant: string;
  collection_id: string;
  /** The collection's slug, which never changes: results and suggestions read no other table. */
  collection: string;
  locale: string;
  slug: string;
  /** The title shown in results (the `title` or `name` field, else the slug). */
  title: string;
  /** The indexed title (empty unless the title field is searchable) and the other searchable fields. */
  title_text: string;
  body_text: string;
}

/** Folded title suffixes of the live documents, for suggestions by prefix on either engine. */
export interface SearchTitleKeysTable {
  title_key: string;
  entry_id: string;
  variant: string;
}

/** Plugins (migration 0011, decisions/0023). */
export interface PluginStatesTable {
  plugin_id: string;
  enabled: number;
  settings: string | null;
  updated_at: string;
  /** The event types whose queued events carry the entry's field values for it, as a JSON array; null for none (migration 0017). */
  event_data: string | null;
}

export interface WebhookSubscriptionsTable {
  id: string;
  url: string;
  events: string;
  description: string | null;
  secret: string;
  active: number;
  created_at: string;
  updated_at: string;
}

export interface WebhookDeliveriesTable {
  id: string;
  subscription_id: string;
  message_id: string;
  event_type: string;
  ordering_key: string;
  payload: string;
  state: string;
  attempts: number;
  next_attempt_at: string;
  window_started_at: string;
  lease_owner: string | null;
  lease_expires_at: string | null;
  last_status: number | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookAttemptsTable {
  id: string;
  delivery_id: string;
  attempt: number;
  started_at: string;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  /** The first characters of the receiver's answer (migration 0023); null when none came. */
  response_excerpt: string | null;
}

/** An event waiting for the plugins it names (migration 0016, decisions/0030). */
export interface PluginEventsTable {
  seq: Generated<number>;
  name: string;
  at: string;
  resource: string;
  consumers: string;
  event: string;
}

export interface AuditEventsTable {
  id: string;
  at: string;
  action: string;
  resource_type: string;
  resource_id: string;
  actor_kind: string;
  actor_id: string | null;
  actor_email: string | null;
  credential_type: string | null;
  credential_id: string | null;
  details: string;
}
/** An uploaded export file, analysed and kept for `execute` (form B) until it expires (migration 0012). */
export interface ImportAnalysesTable {
  id: string;
  source: string;
  storage_key: string;
  filename: string;
  size: number;
  source_key: string;
  summary: string;
  created_by: string | null;
  created_at: string;
  expires_at: string;
  /** What a live-site source reads (JSON: `{type: 'oauth', url, accessToken}`, migration 0014); null for an upload. */
  input: string | null;
}

/** A WordPress.com connection under way (migration 0014): its state, used once, bound to the admin who started it. */
export interface ImportConnectionsTable {
  state_hash: string;
  user_id: string;
  site_url: string;
  redirect_uri: string;
  created_at: string;
  expires_at: string;
}

/** What an import made of one source item: its checkpoint, and what keeps a re-run from duplicating it. */
export interface ImportItemsTable {
  source_key: string;
  kind: string;
  source_id: string;
  target_id: string;
  collection: string | null;
  data: string | null;
  job_id: string;
  created_at: string;
}

/** One line of an import's report: a warning, a skipped item or a failed one. */
export interface ImportNotesTable {
  job_id: string;
  kind: string;
  source_id: string;
  title: string | null;
  message: string;
  created_at: string;
}

/** Who an entry is credited to: a user's byline, or a guest's (import.md §2). */
export interface BylinesTable {
  id: string;
  slug: string;
  display_name: string;
  email: string | null;
  user_id: string | null;
  created_at: string;
  updated_at: string;
}

/** Comments on entries (src/comments/): threads of replies, each in a moderation state. */
export interface CommentsTable {
  id: string;
  collection_id: string;
  entry_id: string;
  parent_id: string | null;
  /** The thread's first comment: its own id when it answers none. */
  thread_id: string;
  status: string;
  author_name: string;
  /** Lower-cased; never public. */
  author_email: string | null;
  author_url: string | null;
  author_user_id: string | null;
  author_address: string | null;
  author_agent: string | null;
  /** The Markdown subset as written. */
  body: string;
  /** `body` rendered to safe HTML when written. */
  body_html: string;
  created_at: string;
  updated_at: string;
}

/** A site archive's restore under way (migration 0030, decisions/0061). */
export interface SiteRestoresTable {
  archive_sha256: string;
  /** The index of the last member wholly restored, in the archive's order (-1: none yet). */
  last_member: number;
  merge: number;
  kept_users: string;
  /** The lines of the member in progress (`last_member + 1`) already written. */
  member_rows: number;
  /** JSON: the restore's report so far and the collections a merge keeps. */
  report: string;
  /** JSON: what the target had before (keys, and the rows the archive replaces), for a failed restore to put back. */
  kept: string;
  started_at: string;
  updated_at: string;
}

/** A site copied into this database by `folio move` (migration 0032, decisions/0062). */
export interface SiteMovesTable {
  source: string;
  copied_at: string;
  caught_up_at: string | null;
}
