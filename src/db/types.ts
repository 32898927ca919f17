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

export interface Database {
  users: UsersTable;
  api_tokens: ApiTokensTable;
  settings: SettingsTable;
}
