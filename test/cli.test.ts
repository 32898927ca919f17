import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './support/database.ts';
import { isSetupComplete } from '../src/auth/setup.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/connection.ts';
import { runCli, spawnServer, type CliResult, type ServerProcess } from './support/process.ts';

const tokenPattern = /^ec_pat_[A-Za-z0-9_-]{43}$/;
const ulidPattern = /^[0-9A-HJKMNP-TV-Z]{26}$/;

let db: TestDatabase;
let mediaDir: string;
/** The environment of every command: this file's database, quiet logs, media in a temporary folder. */
let env: Record<string, string>;
const cli = (...args: string[]) => runCli(args, env);
const unique = `${Date.now().toString(36)}-${process.pid}`;
const email = (name: string) => `${name}-${unique}@example.com`;

function describeRun(result: CliResult): string {
  return `exit ${result.code}${result.signal ? ` (${result.signal})` : ''}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`;
}

/** Asserts a successful run, printing the output when it is not. */
function expectSuccess(result: CliResult): CliResult {
  if (result.code !== 0) throw new Error(`expected exit 0, got ${describeRun(result)}`);
  return result;
}

/** Asserts a failed run (non-zero exit, no answer on stdout), returning stderr. */
function expectFailure(result: CliResult): string {
  if (result.code === 0 || result.code === null) throw new Error(`expected a non-zero exit, got ${describeRun(result)}`);
  expect(result.stdout).toBe('');
  expect(result.stderr).not.toMatch(/\n\s+at .+\(.*:\d+:\d+\)/); // a message, not a stack trace
  return result.stderr;
}

function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

beforeAll(async () => {
  db = await createTestDatabase();
  mediaDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-cli-media-'));
  env = { DATABASE_URL: db.url, LOG_LEVEL: 'silent', MEDIA_DIR: mediaDir };
});

afterAll(async () => {
  await db?.drop();
  if (mediaDir) fs.rmSync(mediaDir, { recursive: true, force: true });
});

describe('folio --help', () => {
  let main: CliResult;
  let tokenCreate: CliResult;
  let serve: CliResult;
  beforeAll(async () => {
    [main, tokenCreate, serve] = await Promise.all([cli('--help'), cli('token', 'create', '--help'), cli('serve', '--help')]);
  });

  it('lists every command', () => {
    expectSuccess(main);
    for (const command of ['serve', 'migrate', 'admin', 'user', 'token']) expect(main.stdout).toMatch(new RegExp(`^\\s+${command}\\b`, 'm'));
  });

  it('describes the flags of token create', () => {
    expectSuccess(tokenCreate);
    for (const flag of ['--email', '--name', '--scopes', '--expires-in']) expect(tokenCreate.stdout).toContain(flag);
    expect(tokenCreate.stdout).toContain('content:read');
    expect(tokenCreate.stdout).toMatch(/30d/);
  });

  it('describes the flags of serve', () => {
    expectSuccess(serve);
    for (const flag of ['--port', '--host', '--public-url', '--database-url', '--media-dir', '--log-level', '--log-format', '--cors-origins', '--body-limit', '--trust-proxy', '--outgoing-allow-private-addresses', '--smtp-url', '--smtp-from', '--session-idle-timeout', '--session-max-age']) {
      expect(serve.stdout).toContain(flag);
    }
  });
});

describe('data commands', () => {
  const admin = email('admin');
  const editor = email('editor');
  let migrated: CliResult;
  let adminCreated: CliResult;
  let editorCreated: CliResult;
  let authorCreated: CliResult;
  beforeAll(async () => {
    // Every later command runs against this migrated database, so none of them races to migrate it.
    migrated = await cli('migrate');
    [adminCreated, editorCreated, authorCreated] = await Promise.all([
      cli('admin', 'create', '--email', admin, '--name', 'Ada Admin'),
      cli('user', 'create', '--email', editor, '--name', 'Ed Editor', '--role', 'editor'),
      cli('user', 'create', '--email', email('author'), '--name', 'Al Author', '--role', '30'),
    ]);
  });

  it('migrate applies the migrations and exits 0', () => {
    expectSuccess(migrated);
    expect(migrated.stdout).toBe('');
    expect(migrated.stderr).toMatch(/up to date/);
  });

  describe('users', () => {
    it('admin create prints the new id', () => {
      expect(expectSuccess(adminCreated).stdout).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}\n$/);
    });

    it('admin create completes setup, as the setup page would', async () => {
      const database = await openDatabase(loadConfig({ DATABASE_URL: db.url }).database);
      try {
        expect(await isSetupComplete(database)).toBe(true);
      } finally {
        await database.close();
      }
    });

    it('user create accepts a role by name or by number', () => {
      expect(expectSuccess(editorCreated).stdout).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}\n$/);
      expect(expectSuccess(authorCreated).stdout).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}\n$/);
      expect(new Set([adminCreated.stdout, editorCreated.stdout, authorCreated.stdout]).size).toBe(3);
    });

    it('refuses an unknown role or a duplicate email, saying why', async () => {
      const [byName, byNumber, duplicate] = await Promise.all([
        cli('user', 'create', '--email', email('wizard'), '--name', 'W', '--role', 'wizard'),
        cli('user', 'create', '--email', email('thirty-five'), '--name', 'T', '--role', '35'),
        cli('user', 'create', '--email', admin, '--name', 'Second', '--role', 'subscriber'),
      ]);
      const nameError = expectFailure(byName);
      expect(nameError).toMatch(/role/i);
      expect(nameError).toContain('wizard');
      const numberError = expectFailure(byNumber);
      expect(numberError).toMatch(/role/i);
      expect(numberError).toContain('35');
      const duplicateError = expectFailure(duplicate);
      expect(duplicateError).toContain(admin);
      expect(duplicateError).toMatch(/already (exists|in use)/);
    });
  });

  describe('tokens', () => {
    const owner = admin;
    let expiring: CliResult;
    let lasting: CliResult;
    let editorToken: CliResult;
    let createdAt: number;

    beforeAll(async () => {
      createdAt = Date.now();
      [expiring, lasting, editorToken] = await Promise.all([
        cli('token', 'create', '--email', owner, '--name', 'deploy-bot', '--scopes', 'content:read,admin', '--expires-in', '30d'),
        cli('token', 'create', '--email', owner, '--name', 'backup', '--scopes', 'content:read'),
        cli('token', 'create', '--email', editor, '--name', 'schema-reader', '--scopes', 'schema:read,content:write'),
      ]);
    });

    it('token create prints only the token', () => {
      for (const result of [expiring, lasting]) {
        expectSuccess(result);
        expect(result.stdout.endsWith('\n')).toBe(true);
        const lines = result.stdout.split('\n');
        expect(lines).toHaveLength(2);
        expect(lines[0]).toMatch(tokenPattern);
        expect(lines[1]).toBe('');
      }
      expect(expiring.stdout).not.toBe(lasting.stdout);
    });

    describe('token create refuses', () => {
      let unknownUser: CliResult;
      let badScope: CliResult;
      let aboveRole: CliResult;
      let badDuration: CliResult;
      beforeAll(async () => {
        [unknownUser, badScope, aboveRole, badDuration] = await Promise.all([
          cli('token', 'create', '--email', email('nobody'), '--name', 'x', '--scopes', 'content:read'),
          cli('token', 'create', '--email', owner, '--name', 'x', '--scopes', 'content:read,content:wrte'),
          cli('token', 'create', '--email', editor, '--name', 'x', '--scopes', 'content:read,admin'),
          cli('token', 'create', '--email', owner, '--name', 'x', '--scopes', 'content:read', '--expires-in', 'forever'),
        ]);
      });

      it('an unknown user', () => {
        const stderr = expectFailure(unknownUser);
        expect(stderr).toContain(email('nobody'));
        expect(stderr).toMatch(/no user/i);
      });

      it('an unknown scope, naming it', () => {
        const stderr = expectFailure(badScope);
        expect(stderr).toMatch(/scope/i);
        // The operator must see which of the scopes they typed is wrong.
        expect(stderr).toContain('content:wrte');
      });

      it("a scope above the user's role", () => {
        const stderr = expectFailure(aboveRole);
        expect(stderr).toMatch(/admin/);
        expect(stderr).toMatch(/role/i);
      });

      it('a lifetime that is not a duration', () => {
        const stderr = expectFailure(badDuration);
        expect(stderr).toContain('forever');
        expect(stderr).toMatch(/expires-in|duration/);
      });
    });

    it('token create lets a user hold the scopes their role allows', () => {
      expect(expectSuccess(editorToken).stdout.trim()).toMatch(tokenPattern);
    });

    it('token list shows ids, names and expiry but never the secret, and token revoke removes one', async () => {
      const listed = expectSuccess(await cli('token', 'list', '--email', owner));
      const [header, ...rows] = listed.stdout.trim().split('\n').map((line) => line.split('\t'));
      expect(header).toEqual(['ID', 'NAME', 'SCOPES', 'EXPIRES', 'LAST USED']);
      expect(rows.map((row) => row[1]).sort()).toEqual(['backup', 'deploy-bot']);
      const deployBot = rows.find((row) => row[1] === 'deploy-bot')!;
      const backup = rows.find((row) => row[1] === 'backup')!;
      expect(deployBot[0]).toMatch(ulidPattern);
      expect(backup[0]).toMatch(ulidPattern);
      expect(deployBot[2]).toBe('content:read,admin');
      const expiresAt = Date.parse(deployBot[3]!);
      expect(Math.abs(expiresAt - (createdAt + 30 * 86_400_000))).toBeLessThan(60_000);
      expect(backup[3]).toBe('never');
      for (const token of [expiring.stdout.trim(), lasting.stdout.trim()]) {
        expect(listed.stdout).not.toContain(token);
        expect(listed.stdout).not.toContain(token.slice('ec_pat_'.length, 'ec_pat_'.length + 12));
      }

      const [revoked, unknown] = await Promise.all([cli('token', 'revoke', '--id', deployBot[0]!), cli('token', 'revoke', '--id', '01ARZ3NDEKTSV4RRFFQ69G5FAV')]);
      expectSuccess(revoked);
      expect(revoked.stdout).toBe('');
      expect(revoked.stderr).toContain(deployBot[0]!);
      // (That a revoked token stops working is shown over HTTP below.)
      const unknownError = expectFailure(unknown);
      expect(unknownError).toMatch(/not found/i);
    });
  });
});

/** Sends a POST whose body is held back until `release` is called: the request is in flight meanwhile. */
function heldBackPost(url: string, requestPath: string, token: string, body: unknown) {
  const { hostname, port } = new URL(url);
  const payload = Buffer.from(JSON.stringify(body));
  const socket = net.connect({ host: hostname, port: Number(port) });
  let received = '';
  const headerBlock = [
    `POST ${requestPath} HTTP/1.1`,
    `Host: ${hostname}:${port}`,
    `Authorization: Bearer ${token}`,
    'Content-Type: application/json',
    `Content-Length: ${payload.length}`,
    // The server answers "100 Continue" once it has parsed the headers and handed the request to the app.
    'Expect: 100-continue',
    'Connection: close',
    '',
    '',
  ].join('\r\n');
  const continued = new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
      if (/^HTTP\/1\.1 100 Continue\r\n\r\n/.test(received)) resolve();
    });
    socket.once('close', () => reject(new Error(`connection closed before 100 Continue: ${received}`)));
  });
  const response = new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    socket.once('error', reject);
    socket.once('close', () => {
      const final = received.replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, '');
      const match = /^HTTP\/1\.1 (\d{3})[^\r]*\r\n([\s\S]*?)\r\n\r\n([\s\S]*)$/.exec(final);
      if (!match) return reject(new Error(`unparseable response: ${received}`));
      let text = match[3]!;
      if (/^transfer-encoding:\s*chunked/im.test(match[2]!)) {
        let decoded = '';
        for (let rest = text; ; ) {
          const sizeLine = /^([0-9a-f]+)[^\r]*\r\n/i.exec(rest);
          if (!sizeLine) break;
          const size = parseInt(sizeLine[1]!, 16);
          if (size === 0) break;
          const start = sizeLine[0].length;
          decoded += rest.slice(start, start + size);
          rest = rest.slice(start + size + 2);
        }
        text = decoded;
      }
      resolve({ status: Number(match[1]), body: JSON.parse(text) });
    });
  });
  socket.write(headerBlock);
  return {
    continued,
    response,
    release: () => socket.write(payload),
    destroy: () => socket.destroy(),
  };
}

describe('the README sequence over a real socket', () => {
  let server: ServerProcess;
  let url: string;
  let live: string;
  let doomed: string;
  let sigtermSent = false;
  const admin = email('live-admin');

  beforeAll(async () => {
    server = spawnServer({ ...env, PORT: '0', LOG_LEVEL: 'info' });
    const listening = await server.waitForLog((line) => line.msg === 'folio listening');
    url = String(listening.url);
  });

  afterAll(async () => {
    await server?.kill();
  });

  it('logs JSON lines and announces where it listens', () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(Number(new URL(url).port)).toBeGreaterThan(0);
    const line = server.logs.find((entry) => entry.msg === 'folio listening')!;
    expect(line.level).toBe(30);
    expect(line.database).toBe(db.kind);
    expect(server.stdout.trim().split('\n').every((text) => text.startsWith('{'))).toBe(true);
  });

  it('sends a browser opening its address to the panel, which sends it to sign in first, not to a bare 404', async () => {
    const root = await fetch(`${url}/`, { redirect: 'manual' });
    expect(root.status).toBe(302);
    expect(root.headers.get('location')).toBe('/_cms/admin/');
    const panel = await fetch(new URL(root.headers.get('location')!, url), { redirect: 'manual' });
    expect(panel.status).toBe(303);
    expect(panel.headers.get('location')).toBe('/_cms/sign-in?return=%2F_cms%2Fadmin%2F');
    const signIn = await fetch(new URL(panel.headers.get('location')!, url));
    expect(signIn.status).toBe(200);
    expect(signIn.headers.get('content-type')).toMatch(/^text\/html/);
    await signIn.body?.cancel();
    // Only the root: any other unknown address is still a 404.
    expect((await fetch(`${url}/nothing-here`)).status).toBe(404);
  });

  it('accepts an admin and tokens created by the CLI while it runs', async () => {
    expectSuccess(await cli('admin', 'create', '--email', admin, '--name', 'Live Admin'));
    const [first, second] = await Promise.all([
      cli('token', 'create', '--email', admin, '--name', 'doomed', '--scopes', 'content:read,admin', '--expires-in', '30d'),
      cli('token', 'create', '--email', admin, '--name', 'live', '--scopes', 'content:read,admin'),
    ]);
    doomed = expectSuccess(first).stdout.trim();
    live = expectSuccess(second).stdout.trim();
    expect(doomed).toMatch(tokenPattern);
    expect(live).toMatch(tokenPattern);

    for (const token of [doomed, live]) {
      const response = await fetch(`${url}/_cms/api/settings`, { headers: { authorization: `Bearer ${token}` } });
      expect(response.status).toBe(200);
      const body = (await response.json()) as { success: boolean; data: { siteTitle: string } };
      expect(body.success).toBe(true);
      expect(body.data.siteTitle).toBe('Folio');
    }
  });

  it('refuses a token revoked by the CLI while it runs', async () => {
    const listed = expectSuccess(await cli('token', 'list', '--email', admin));
    const id = listed.stdout
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split('\t'))
      .find((row) => row[1] === 'doomed')?.[0];
    expect(id).toMatch(ulidPattern);
    expectSuccess(await cli('token', 'revoke', '--id', id!));

    const [revoked, still] = await Promise.all([
      fetch(`${url}/_cms/api/settings`, { headers: { authorization: `Bearer ${doomed}` } }),
      fetch(`${url}/_cms/api/settings`, { headers: { authorization: `Bearer ${live}` } }),
    ]);
    expect(revoked.status).toBe(401);
    expect(((await revoked.json()) as { error: { code: string } }).error.code).toBe('UNAUTHORIZED');
    expect(still.status).toBe(200);
    await still.body?.cancel();
  });

  it('finishes a request in flight when SIGTERM arrives', async () => {
    const request = heldBackPost(url, '/_cms/api/settings', live, { tagline: 'written while stopping' });
    try {
      await withDeadline(request.continued, 10_000, '100 Continue');
      // The app is now waiting for the body: stop the server, and wait until it has begun shutting down.
      sigtermSent = server.child.kill('SIGTERM');
      expect(sigtermSent).toBe(true);
      await server.waitForLog((line) => line.msg === 'shutting down');
      request.release();
      const response = await withDeadline(request.response, 10_000, 'the response to the request in flight');
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ success: true, data: { tagline: 'written while stopping' } });
    } finally {
      request.destroy();
    }
  });

  it('exits with code 0 after SIGTERM and logs folio stopped', async () => {
    if (!sigtermSent) sigtermSent = server.child.kill('SIGTERM');
    const exit = await withDeadline(server.exited, 15_000, 'exit after SIGTERM');
    expect(exit).toEqual({ code: 0, signal: null });
    const messages = server.logs.map((line) => line.msg);
    expect(messages).toContain('folio stopped');
    expect(messages.indexOf('shutting down')).toBeLessThan(messages.indexOf('folio stopped'));
    // The request that was in flight was answered (and logged) before the server reported it had stopped.
    const inFlight = server.logs.findIndex((line) => line.msg === 'request' && line.method === 'POST' && line.path === '/_cms/api/settings');
    expect(inFlight).toBeGreaterThan(messages.indexOf('shutting down'));
    expect(inFlight).toBeLessThan(messages.indexOf('folio stopped'));
    expect(server.stderr).toBe('');
  });
});

/** This engine's database, answering but refusing: a PostgreSQL user that does not exist; on SQLite, a file that is not a database. */
function refusedDatabaseUrl(): string {
  if (db.kind === 'postgres') {
    const url = new URL(db.url);
    url.username = 'folio_no_such_user';
    return url.toString();
  }
  const file = path.join(mediaDir, 'notes.txt');
  fs.writeFileSync(file, 'These are notes, not an SQLite database.\n'.repeat(200));
  return file;
}

describe('serve refuses to start', () => {
  let badPort: CliResult;
  let noDatabase: CliResult;
  let portTaken: CliResult;
  let takenPort: number;
  let unknownHost: CliResult;
  let refusedServe: CliResult;
  let refusedMigrate: CliResult;
  beforeAll(async () => {
    // Another program holds the port: Folio finds out only when it listens, after migrating the database.
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    takenPort = (holder.address() as net.AddressInfo).port;
    const refused = refusedDatabaseUrl();
    try {
      // Two waves of three: six processes starting at once beside other test files starved each other
      // past their deadline on a two-core machine.
      [badPort, noDatabase, portTaken] = await Promise.all([
        runCli(['serve'], { ...env, PORT: 'abc', LOG_LEVEL: 'info' }, 30_000),
        runCli(['serve'], { ...env, PORT: '0', LOG_LEVEL: 'info', DATABASE_URL: 'postgres://postgres@127.0.0.1:1/nope' }, 30_000),
        runCli(['serve'], { ...env, PORT: String(takenPort), HOST: '127.0.0.1', LOG_LEVEL: 'warn' }, 30_000),
      ]);
      [unknownHost, refusedServe, refusedMigrate] = await Promise.all([
        runCli(['serve'], { ...env, PORT: '0', HOST: 'no-such-host.invalid', LOG_LEVEL: 'warn' }, 30_000),
        runCli(['serve'], { ...env, PORT: '0', LOG_LEVEL: 'info', DATABASE_URL: refused }, 30_000),
        runCli(['migrate'], { ...env, DATABASE_URL: refused }, 30_000),
      ]);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  }, 90_000);

  it('when the port is taken, naming it and how to choose another', () => {
    const stderr = expectFailure(portTaken);
    expect(stderr.trim().split('\n')).toEqual([`folio: port ${takenPort} at 127.0.0.1 is already in use (another Folio, or another program): stop that program, or start Folio on a free port with PORT (or --port), such as PORT=${takenPort + 1}`]);
  });

  it('when HOST does not resolve, naming it and what to set instead', () => {
    const stderr = expectFailure(unknownHost);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/^folio: HOST no-such-host\.invalid does not resolve to an address \(\w+\): set HOST \(or --host\) to an address of this machine/);
  });

  it('when the database answers but refuses (an unknown PostgreSQL user; on SQLite a file that is no database), saying so, not "cannot reach"', () => {
    for (const result of [refusedServe, refusedMigrate]) {
      const stderr = expectFailure(result);
      expect(stderr.trim().split('\n')).toHaveLength(1);
      expect(stderr).not.toMatch(/cannot reach/i);
      if (db.kind === 'postgres') expect(stderr).toMatch(/^folio: PostgreSQL at \S+ refused the user "folio_no_such_user" \(.+\): fix the user in DATABASE_URL/);
      else expect(stderr).toMatch(/^folio: \S+notes\.txt is not an SQLite database: point DATABASE_URL/);
    }
  });

  it('with an invalid variable, naming it, before listening', () => {
    expectFailure(badPort);
    expect(badPort.stderr).toContain('PORT');
    expect(badPort.stderr).toContain('abc');
  });

  it('when the database cannot be reached', () => {
    expectFailure(noDatabase);
    expect(noDatabase.stderr).toMatch(/cannot reach the database/i);
  });
});
