import pino from 'pino';
import { apiRoutes, createApp } from '../../src/app.ts';
import { createToken } from '../../src/auth/operations.ts';
import { configuredBaseUrl, loadConfig, type Config } from '../../src/config.ts';
import type { EntryChangeListener } from '../../src/content/changes.ts';
import { EntryListeners } from '../../src/content/listeners.ts';
import type { Clock } from '../../src/core/clock.ts';
import { systemPrincipal, type Context } from '../../src/core/context.ts';
import { runOperation } from '../../src/core/operation.ts';
import type { Role, Scope } from '../../src/core/roles.ts';
import { openDatabase, type Db } from '../../src/db/connection.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { openStorage } from '../../src/media/storage/open.ts';
import type { MediaStorage } from '../../src/media/storage/types.ts';
import type { CredentialResolver } from '../../src/http/credentials.ts';
import type { Mailer } from '../../src/auth/mail.ts';
import type { Route } from '../../src/http/route.ts';
import type { PluginHost } from '../../src/plugins/host.ts';
import type { User } from '../../src/users/schemas.ts';
import { createUser } from '../../src/users/operations.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';

/** A clock the test moves by hand, so time-dependent behaviour needs no sleeping. */
export class TestClock implements Clock {
  private current: number;
  constructor(start = Date.parse('2026-01-01T00:00:00.000Z')) {
    this.current = start;
  }
  now(): Date {
    return new Date(this.current);
  }
  advance(ms: number): void {
    this.current += ms;
  }
}

export interface RequestOptions {
  token?: string;
  body?: unknown;
  /** A raw body sent as is (for malformed JSON and wrong content types). */
  rawBody?: string | Uint8Array | ReadableStream<Uint8Array>;
  headers?: Record<string, string>;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- tests inspect arbitrary JSON
  /** The body as it came, for files. */
  bytes: Buffer;
}

export interface TestApp {
  db: Db;
  config: Config;
  storage: MediaStorage;
  clock: TestClock;
  database: TestDatabase;
  /** The first admin and a token holding every scope. */
  admin: User;
  adminToken: string;
  request(method: string, path: string, options?: RequestOptions): Promise<ApiResponse>;
  /** Creates a user with a role and a token with the given scopes for them. */
  userWithToken(role: number, scopes: Scope[], email?: string): Promise<{ user: User; token: string }>;
  systemContext(): Context;
  /** The plugins it serves and calls (TestAppOptions.plugins). */
  plugins: PluginHost | undefined;
  /** The SQL statements sent to the database while `work` runs. */
  statementsDuring(work: () => Promise<unknown>): Promise<string[]>;
  close(): Promise<void>;
}

let emailCounter = 0;

/** The real app on a fresh database of this project's engine, spoken to with in-process requests. */
export interface TestAppOptions {
  /** Routes served besides the API's own (tests of the route shapes). */
  routes?: readonly Route[];
  credentials?: readonly CredentialResolver[];
  entryListeners?: EntryChangeListener[];
  /** How sign-in mails go out; default the app's own (SMTP from the config, or the log). */
  mailer?: Mailer;
  /** The plugins to serve and call (plugins/loader.ts); default none. */
  plugins?: PluginHost;
  /** A fresh installation: no user at all (`admin` and `adminToken` are then placeholders that work nowhere). */
  withoutAdmin?: boolean;
}

export async function createTestApp(overrides: Record<string, string> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const entryListeners = EntryListeners.of(options.entryListeners);
  const database = await createTestDatabase();
  // WordPress.com's API on a loopback port nothing listens on: a probe never reaches the real one.
  const config = loadConfig({ DATABASE_URL: database.url, LOG_LEVEL: 'silent', MEDIA_DIR: '/tmp/folio-test-media', WPCOM_API_URL: 'http://127.0.0.1:9', ...overrides });
  let recording: string[] | undefined;
  const db = await openDatabase(config.database, { onStatement: (sql) => recording?.push(sql) });
  const storage = await openStorage(config.media.storage);
  try {
    await migrateToLatest(db);
  } catch (error) {
    await db.close();
    await database.drop();
    throw error;
  }
  const clock = new TestClock(Date.now());
  const log = pino({ level: 'silent' });
  const app = createApp({ config, db, log, storage, clock, routes: [...apiRoutes, ...(options.routes ?? [])], credentials: options.credentials, entryListeners, mailer: options.mailer, plugins: options.plugins });
  const systemContext = (): Context => ({ db, clock, config, log, principal: systemPrincipal, entryListeners, storage, baseUrl: configuredBaseUrl(config), plugins: options.plugins });

  const userWithToken = async (role: number, scopes: Scope[], email = `user${++emailCounter}-${Date.now()}@example.com`) => {
    const { item: user } = await runOperation(createUser, systemContext(), () => ({ email, name: `User ${emailCounter}`, role: role as Role }));
    const { token } = await runOperation(createToken, systemContext(), () => ({ userId: user.id, name: 'test', scopes }));
    return { user, token };
  };
  const { user: admin, token: adminToken } = options.withoutAdmin
    ? { user: { id: 'none', email: 'none@example.com', name: 'None', role: 50, disabled: true, createdAt: '', updatedAt: '', lastSignInAt: null }, token: 'ec_pat_none' }
    : await userWithToken(50, ['admin'], `admin-${Date.now()}@example.com`);

  return {
    db,
    config,
    storage,
    clock,
    database,
    admin,
    adminToken,
    userWithToken,
    systemContext,
    plugins: options.plugins,
    async statementsDuring(work) {
      recording = [];
      try {
        await work();
        return recording;
      } finally {
        recording = undefined;
      }
    },
    async request(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      if (options.token) headers.authorization = `Bearer ${options.token}`;
      let body: string | Uint8Array | ReadableStream<Uint8Array> | undefined = options.rawBody;
      if (options.body !== undefined) {
        body = JSON.stringify(options.body);
        headers['content-type'] ??= 'application/json';
      }
      // A stream body is sent as it comes (chunked), as a client without Content-Length would.
      const response = await app.request(path, { method, headers, body, ...(body instanceof ReadableStream ? { duplex: 'half' } : {}) });
      const bytes = Buffer.from(await response.arrayBuffer());
      const text = bytes.toString('utf8');
      let parsed: unknown = text;
      if (/^application\/(?:[\w.+-]+\+)?json\b/.test(response.headers.get('content-type') ?? '') && text) parsed = JSON.parse(text);
      return { status: response.status, headers: response.headers, body: parsed, bytes };
    },
    async close() {
      await db.close();
      await storage.close();
      await database.drop();
    },
  };
}

/** Asserts the error envelope, returning it for further checks. */
export function expectError(response: ApiResponse, status: number, code: string) {
  const summary = `${response.status} ${JSON.stringify(response.body)}`;
  if (response.status !== status || response.body?.success !== false || response.body?.error?.code !== code) {
    throw new Error(`expected ${status} ${code}, got ${summary}`);
  }
  if (typeof response.body.error.message !== 'string' || typeof response.body.error.details !== 'object' || response.body.error.details === null) {
    throw new Error(`error envelope malformed: ${summary}`);
  }
  return response.body.error as { code: string; message: string; details: Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** Asserts a 200 success envelope and returns its data. */
export function expectSuccess(response: ApiResponse) {
  if (response.status !== 200 || response.body?.success !== true) {
    throw new Error(`expected 200 success, got ${response.status} ${JSON.stringify(response.body)}`);
  }
  return response.body.data;
}

/** Asserts a 400 VALIDATION_ERROR and returns the paths its issues name. */
export function issuePaths(response: ApiResponse): string[] {
  const error = expectError(response, 400, 'VALIDATION_ERROR');
  if (!Array.isArray(error.details.issues)) throw new Error(`details.issues missing: ${JSON.stringify(response.body)}`);
  for (const issue of error.details.issues) {
    if (typeof issue.path !== 'string' || typeof issue.message !== 'string') throw new Error(`malformed issue: ${JSON.stringify(issue)}`);
  }
  return error.details.issues.map((issue: { path: string }) => issue.path);
}
