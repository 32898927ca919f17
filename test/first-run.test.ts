import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from './support/database.ts';
import { freePort } from './support/ports.ts';
import { cliPath, repoRoot, runCli, runProcess, spawnServer, type CliResult, type LogLine, type ServerProcess } from './support/process.ts';

/** What a newcomer meets: an old Node.js refused in one sentence, readable logs, and the next step. */

let workDir: string;
beforeAll(() => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-first-run-'));
});
afterAll(() => {
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
});

const fakeVersionPreload = pathToFileURL(fileURLToPath(new URL('./support/fake-node-version.mjs', import.meta.url))).href;
/** The environment that makes every Node.js process started with it report `version`. */
const reportingVersion = (version: string) => ({ NODE_OPTIONS: `--import=${fakeVersionPreload}`, FOLIO_TEST_FAKE_NODE_VERSION: version });

/** Node.js binaries on PATH older than 22.12 (this machine's system Node.js 20, say), as a user may have. */
function oldNodesOnPath(): string[] {
  let found: string[];
  try {
    found = execFileSync('which', ['-a', 'node'], { encoding: 'utf8' }).trim().split('\n');
  } catch {
    return [];
  }
  const binaries = [...new Set(found.map((file) => fs.realpathSync(file)))];
  return binaries.filter((binary) => {
    const [major = 0, minor = 0] = execFileSync(binary, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim().split('.').map(Number);
    return major < 22 || (major === 22 && minor < 12);
  });
}

/** The one-sentence refusal: the version found, the one needed, and where to get it. */
function expectRefusal(result: CliResult, version: string): void {
  expect(result.code, `stdout: ${result.stdout}\nstderr: ${result.stderr}`).toBe(1);
  const lines = result.stderr.trim().split('\n');
  const sentence = lines.find((line) => line.startsWith('folio: Node.js'));
  expect(sentence, result.stderr).toBeDefined();
  expect(sentence).toContain(`Node.js ${version} `);
  expect(sentence).toContain('Folio needs Node.js 22.12.0 or newer');
  expect(sentence).toContain('https://nodejs.org');
  expect(sentence).toContain('nvm install 22');
  expect(result.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/); // a sentence, not a stack trace
}

describe('an unsupported Node.js', () => {
  const cases = [
    ...['v20.11.1', 'v22.11.0'].map((version) => ({ name: `a Node.js reporting ${version}`, node: process.execPath, version, env: reportingVersion(version) })),
    ...oldNodesOnPath().map((node) => {
      const version = execFileSync(node, ['-p', 'process.version'], { encoding: 'utf8' }).trim();
      return { name: `${node} (${version})`, node, version, env: {} };
    }),
  ];

  it.each(cases)('$name: folio serve exits 1 with one sentence, before opening the database', async ({ node, version, env }) => {
    const file = path.join(workDir, `${version}.db`);
    const result = await runProcess(node, [cliPath, 'serve'], { ...env, PORT: '0', DATABASE_URL: `file:${file}`, MEDIA_DIR: path.join(workDir, 'media') });
    expectRefusal(result, version);
    expect(result.stdout).toBe('');
    expect(fs.existsSync(file)).toBe(false);
  });

  it('is refused by every folio command', async () => {
    const results = await Promise.all(
      [['--version'], ['migrate'], ['admin', 'create', '--email', 'ada@example.com', '--name', 'Ada']].map((args) =>
        runCli(args, { ...reportingVersion('v20.11.1'), DATABASE_URL: `file:${path.join(workDir, 'commands.db')}` }),
      ),
    );
    for (const result of results) expectRefusal(result, 'v20.11.1');
    expect(fs.existsSync(path.join(workDir, 'commands.db'))).toBe(false);
  });

  it('is refused by npm start', async () => {
    // npm itself runs on 22.11; the start script's Node.js refuses it.
    const result = await runProcess('npm', ['start'], { ...reportingVersion('v22.11.0'), PORT: '0', DATABASE_URL: `file:${path.join(workDir, 'start.db')}` });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/^folio: Node\.js v22\.11\.0 .*Folio needs Node\.js 22\.12\.0 or newer/m);
  });

  it('is refused by npm install (engines enforced), which installs nothing', async () => {
    const project = path.join(workDir, 'install');
    fs.mkdirSync(project);
    for (const file of ['package.json', 'package-lock.json', '.npmrc']) fs.copyFileSync(path.join(repoRoot, file), path.join(project, file));
    const result = await runProcess('npm', ['install', '--dry-run', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], reportingVersion('v22.11.0'), { cwd: project });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/^npm error code EBADENGINE$/m);
    expect(result.stderr).toContain('"node":">=22.12.0"');
    expect(result.stderr).toContain('"node":"v22.11.0"');
    expect(fs.existsSync(path.join(project, 'node_modules'))).toBe(false);
  });

  it('is not refused when it is the version package.json names', async () => {
    const result = await runCli(['--version'], reportingVersion('v22.12.0'));
    expect(result).toMatchObject({ code: 0, stdout: '0.1.0\n' });
  });
});

/** `npm start`'s command line, from package.json. */
const startScript = () => (JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;

describe('an old Node.js running bin/folio.mjs as npm start does', () => {
  // The system Node.js here (and whatever old one a user has on PATH): a real one, not a reported version.
  const oldNodes = [...new Set([...oldNodesOnPath(), ...(fs.existsSync('/usr/bin/node') ? [fs.realpathSync('/usr/bin/node')] : [])])].filter(
    (node) => Number(execFileSync(node, ['-p', 'process.versions.node.split(".")[0]'], { encoding: 'utf8' }).trim()) < 22,
  );
  /** bin/ and package.json alone, as after an `npm install` that refused this Node.js and installed nothing. */
  let bareCli: string;
  beforeAll(() => {
    const bare = path.join(workDir, 'without-node-modules');
    fs.cpSync(path.join(repoRoot, 'bin'), path.join(bare, 'bin'), { recursive: true });
    fs.copyFileSync(path.join(repoRoot, 'package.json'), path.join(bare, 'package.json'));
    bareCli = path.join(bare, 'bin', 'folio.mjs');
  });

  it('has one to run here', () => {
    expect(oldNodes.length, 'no Node.js older than 22 on this machine (/usr/bin/node is Node 20 in CI)').toBeGreaterThan(0);
  });

  it.each(oldNodes.flatMap((node) => [{ node, where: 'with node_modules' }, { node, where: 'without node_modules' }]))(
    '$node $where: one sentence, exit 1',
    async ({ node, where }) => {
      const cli = where === 'with node_modules' ? cliPath : bareCli;
      // Nothing Folio depends on can be found from the bare copy: the refusal must not need it.
      if (where === 'without node_modules') expect(() => createRequire(cli).resolve('semver')).toThrow();
      const version = execFileSync(node, ['-p', 'process.version'], { encoding: 'utf8' }).trim();
      // The start script's own command line, flags and all: a flag this Node.js does not know would stop it before the check.
      const [command, ...args] = startScript().split(' ');
      expect(command).toBe('node');
      const result = await runProcess(node, args, { PORT: '0', DATABASE_URL: `file:${path.join(workDir, 'old-node.db')}` }, { cwd: path.dirname(path.dirname(cli)) });
      expectRefusal(result, version);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stdout).toBe('');
    },
  );
});

describe('a first start', () => {
  let db: TestDatabase;
  let serverUrl: string;
  const mediaDir = () => path.join(workDir, 'media');
  const servers: ServerProcess[] = [];
  /** Starts `folio serve` and waits until it has logged a request: every start-up line is out by then. */
  async function startAndRequest(env: Record<string, string>, isListening: (line: LogLine) => boolean): Promise<ServerProcess> {
    const server = spawnServer({ DATABASE_URL: serverUrl, MEDIA_DIR: mediaDir(), PORT: '0', LOG_LEVEL: 'info', ...env });
    servers.push(server);
    const listening = await server.waitForLog(isListening);
    const url = typeof listening.url === 'string' ? listening.url : /url=(\S+)/.exec(String(listening.raw))![1]!;
    const response = await fetch(`${url}/_cms/api/health`);
    expect(response.status).toBe(200);
    await response.body?.cancel();
    await server.waitForLog((line) => line.msg === 'request' || /GET \/_cms\/api\/health 200/.test(String(line.raw)));
    return server;
  }
  const jsonListening = (line: LogLine) => line.msg === 'folio listening';

  beforeAll(async () => {
    db = await createTestDatabase();
    // A password in the URL must never reach the logs (PostgreSQL here trusts local connections, so any works).
    serverUrl = db.kind === 'postgres' ? db.url.replace('postgres://postgres@', 'postgres://postgres:never-logged@') : db.url;
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.kill()));
    await db?.drop();
  });

  describe('with no user yet, logging JSON', () => {
    let server: ServerProcess;
    beforeAll(async () => {
      server = await startAndRequest({ LOG_FORMAT: 'json' }, jsonListening);
    });

    it('says where it listens, which database and which media storage it uses', () => {
      const line = server.logs.find(jsonListening)!;
      expect(line.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(line.database).toBe(db.kind);
      const url = new URL(db.url);
      expect(line.databaseLocation).toBe(db.kind === 'sqlite' ? db.url.replace(/^file:/, '') : `${url.hostname}:${url.port}${url.pathname}`);
      expect(line.media).toBe(mediaDir());
      expect(server.stdout).not.toContain('never-logged');
    });

    /** The command the hint prints, with the DATABASE_URL before it. */
    const printedCommand = () => {
      const hint = server.logs.find((line) => typeof line.msg === 'string' && line.msg.startsWith('no users yet'));
      expect(hint?.msg).toMatch(/create the first admin/);
      const match = /: ((?:DATABASE_URL=(\S+) )?(npx folio admin create .+))$/.exec(String(hint?.msg));
      expect(match, String(hint?.msg)).not.toBeNull();
      return { line: match![1]!, databaseUrl: match![2], readme: match![3]! };
    };

    it('tells what to do next: the README command that creates the first admin, naming this database', () => {
      const { databaseUrl, readme } = printedCommand();
      expect(fs.readFileSync(path.join(repoRoot, 'README.md'), 'utf8')).toContain(`\n${readme}\n`);
      // Not the default database: without DATABASE_URL the command would work on ./data/folio.db.
      expect(databaseUrl).toBeDefined();
      // The password stays out of the log; the person types theirs where the placeholder is.
      if (db.kind === 'postgres') expect(databaseUrl).toContain(':<password>@');
    });

    it('prints a command that, typed into another terminal elsewhere, makes the admin this server knows', async () => {
      const url = String(server.logs.find(jsonListening)!.url);
      const elsewhere = fs.mkdtempSync(path.join(workDir, 'terminal-'));
      // What the person types: their password for the placeholder, their own address, and folio from this checkout.
      const typed = printedCommand()
        .line.replace('<password>', 'never-logged')
        .replace('ada@example.com', 'grace@example.com')
        .replace('npx folio', `'${process.execPath}' '${cliPath}'`);
      const result = await runProcess('sh', ['-c', typed], { LOG_LEVEL: 'silent' }, { cwd: elsewhere });
      expect(result.code, result.stderr).toBe(0);
      expect(fs.existsSync(path.join(elsewhere, 'data'))).toBe(false);
      const status = await fetch(`${url}/_cms/api/setup/status`);
      expect(((await status.json()) as { data: unknown }).data).toEqual({ setupComplete: true, hasUsers: true });
    });

    it('prints a one-time setup link for the browser, and says sign-in links only reach the log without SMTP', () => {
      const setup = server.logs.find((line) => typeof line.msg === 'string' && line.msg.startsWith('setup:'));
      // At localhost, not at the bound 127.0.0.1: browsers refuse passkeys on an IP address.
      const port = new URL(String(server.logs.find(jsonListening)!.url)).port;
      expect(setup?.msg).toMatch(new RegExp(` at http://localhost:${port}/_cms/setup\\?secret=[\\w-]{32} `));
      expect(server.logs.filter((line) => line.level === 40).map((line) => line.msg)).not.toContainEqual(expect.stringContaining('IP address'));
      const smtp = server.logs.find((line) => typeof line.msg === 'string' && line.msg.startsWith('no SMTP server configured'));
      expect(smtp?.level).toBe(40);
    });

    it('writes only JSON lines', () => {
      const lines = server.stdout.trim().split('\n');
      expect(lines.length).toBeGreaterThan(2);
      for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    });
  });

  describe('with PUBLIC_URL', () => {
    /** The start-up warnings about the public address: passkeys and IP addresses. */
    const ipWarnings = (server: ServerProcess) => server.logs.filter((line) => line.level === 40 && String(line.msg).includes('IP address'));

    it('warns once, at start, that passkeys will not work when it is an IP address, and what to use instead', async () => {
      const port = await freePort();
      const server = await startAndRequest({ LOG_FORMAT: 'json', PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` }, jsonListening);
      const warnings = ipWarnings(server);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]!.msg).toBe(
        `PUBLIC_URL http://127.0.0.1:${port} makes http://127.0.0.1:${port} Folio's public address, an IP address: browsers refuse passkeys (WebAuthn) on an IP address, so setup and passkey sign-in will fail there; set PUBLIC_URL to a domain name that reaches this server (http://localhost:${port} on this computer)`,
      );
    });

    it('does not warn when it is a name, such as localhost', async () => {
      const port = await freePort();
      const server = await startAndRequest({ LOG_FORMAT: 'json', PORT: String(port), PUBLIC_URL: `http://localhost:${port}` }, jsonListening);
      expect(server.logs.some(jsonListening)).toBe(true);
      expect(ipWarnings(server)).toEqual([]);
    });
  });

  describe('once an admin exists, logging readable lines', () => {
    let server: ServerProcess;
    beforeAll(async () => {
      const created = await runCli(['admin', 'create', '--email', 'ada@example.com', '--name', 'Ada Lovelace'], { DATABASE_URL: serverUrl, LOG_LEVEL: 'silent' });
      expect(created.code, created.stderr).toBe(0);
      server = await startAndRequest({ LOG_FORMAT: 'pretty' }, (line) => /folio listening/.test(String(line.raw)));
    });

    it('gives no hint', () => {
      expect(server.stdout).toContain('folio listening');
      expect(server.stdout).not.toContain('no users yet');
      expect(server.stdout).not.toContain('admin create');
      expect(server.stdout).not.toContain('/_cms/setup');
    });

    it('writes one readable line per event, without colours when not on a terminal', () => {
      const lines = server.stdout.trim().split('\n');
      expect(lines.length).toBeGreaterThan(1);
      for (const line of lines) {
        expect(line).toMatch(/^\[\d\d:\d\d:\d\d\] [A-Z]+: \S/);
        expect(() => JSON.parse(line)).toThrow();
      }
      expect(server.stdout).not.toContain('\u001b[');
      expect(server.stdout).toMatch(/^\[[\d:]+\] INFO: folio listening url=http:\/\/127\.0\.0\.1:\d+ database=(sqlite|postgres) databaseLocation=\S+ media=\S+$/m);
      expect(server.stdout).toMatch(/^\[[\d:]+\] INFO: GET \/_cms\/api\/health 200 \d+ ms$/m);
      expect(server.stdout).not.toContain('never-logged');
    });
  });
});

describe('the folio command', () => {
  it('runs through its first line with the V8 flags npm start passes too', async () => {
    const shebang = fs.readFileSync(cliPath, 'utf8').split('\n', 1)[0]!;
    expect(shebang).toBe('#!/usr/bin/env -S node --max-semi-space-size=8 --heap-growing-percent=25 --expose-gc');
    const packageJson = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { scripts: { start: string } };
    expect(packageJson.scripts.start).toBe('node --max-semi-space-size=8 --heap-growing-percent=25 --expose-gc bin/folio.mjs serve');
    const result = await runProcess(cliPath, ['--version'], { PATH: `${path.dirname(process.execPath)}:${process.env.PATH}` });
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });
});
