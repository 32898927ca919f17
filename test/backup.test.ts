import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from './support/database.ts';
import { until } from './support/poll.ts';
import { runCli } from './support/process.ts';
import { call, fileBytes, startServer, uploadText, type Server } from './support/served.ts';

/**
 * `folio backup` (docs/decisions/0060). On SQLite: a backup taken while a real server keeps writing,
 * verified, restored into a second server; retention; damaged backups; on PostgreSQL: the pg_dump
 * command, its password masked. Bad input is refused on both.
 */
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

function backupsIn(dir: string): string[] {
  return fs.readdirSync(dir).filter((name) => name.startsWith('folio-backup-')).sort();
}

/** A copy of a backup directory, to damage without touching the original. */
function copyOf(backup: string, name: string): string {
  const copy = path.join(path.dirname(path.dirname(backup)), 'damaged', name);
  fs.cpSync(backup, copy, { recursive: true });
  return copy;
}

describe('folio backup: bad input', () => {
  it('refuses a missing DIR and a --keep that is not a whole number from 1, naming what is wrong', async () => {
    const env = { DATABASE_URL: 'file:/nonexistent/folio.db' };
    const noDir = await runCli(['backup'], env);
    expect(noDir.code).not.toBe(0);
    expect(noDir.stderr).toMatch(/dir: Give the folder to write the backup into/);
    for (const keep of ['0', 'x', '-1']) {
      const result = await runCli(['backup', os.tmpdir(), '--keep', keep], env);
      expect(result.code, keep).not.toBe(0);
      expect(result.stderr).toContain(`"${keep}" is not a number of backups for --keep`);
    }
    const both = await runCli(['backup', os.tmpdir(), '--verify', os.tmpdir()], env);
    expect(both.code).not.toBe(0);
    expect(both.stderr).toContain('--verify');
  });

  it('describes itself under --help', async () => {
    const help = await runCli(['backup', '--help'], {});
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/--keep <n>/);
    expect(help.stdout).toMatch(/--verify <path>/);
    expect(help.stdout).toMatch(/pg_dump/);
  });
});

if (testDatabaseKind === 'postgres') {
  describe('folio backup on PostgreSQL', () => {
    let database: TestDatabase;
    let dir: string;
    beforeAll(async () => {
      database = await createTestDatabase();
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-backup-pg-'));
    });
    afterAll(async () => {
      await database?.drop();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    it('prints the pg_dump command for the configured database, its password masked, and copies nothing', async () => {
      const url = new URL(database.url);
      url.username = 'folio';
      url.password = 'hunter2-secret';
      const result = await runCli(['backup', path.join(dir, 'backups')], { DATABASE_URL: url.toString(), MEDIA_DIR: path.join(dir, 'media') });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout + result.stderr).not.toContain('hunter2-secret');
      const command = result.stdout.split('\n').find((line) => line.trim().startsWith('pg_dump'));
      expect(command).toBeDefined();
      expect(command).toContain('--format=custom');
      expect(command).toMatch(new RegExp(`--file=${path.join(dir, 'backups')}/folio-backup-\\d{8}T\\d{6}\\.\\d{3}Z\\.dump`));
      expect(command).toContain(`folio:<password>@${url.host}${url.pathname}`);
      expect(result.stdout).toContain('PGPASSWORD');
      expect(result.stdout).toContain(`rsync -a ${path.join(dir, 'media')}/`);
      expect(fs.existsSync(path.join(dir, 'backups'))).toBe(false);
    });
  });
}

if (testDatabaseKind === 'sqlite') {
  describe('folio backup on SQLite', () => {
    let dir: string;
    let env: Record<string, string>;
    let source: Server;
    let token: string;
    const restored: Server[] = [];
    /** The entries created before any backup: id → title. */
    const entries: { id: string; title: string }[] = [];
    const media: { storageKey: string; text: string }[] = [];
    let firstBackup: string;

    const createEntry = async (title: string) => {
      const created = await call(source, token, 'POST', '/content/notes', { data: { title } });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      return { id: created.body.data.item.id as string, title };
    };

    beforeAll(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'folio-backup-'));
      env = { DATABASE_URL: `file:${path.join(dir, 'site', 'folio.db')}`, MEDIA_DIR: path.join(dir, 'site', 'media') };
      expect((await runCli(['admin', 'create', '--email', 'backup@example.com', '--name', 'Backup'], env)).code).toBe(0);
      token = (await runCli(['token', 'create', '--email', 'backup@example.com', '--name', 'backup', '--scopes', 'admin'], env)).stdout.trim();
      source = await startServer(env);
      expect((await call(source, token, 'POST', '/schema/collections', { slug: 'notes', label: 'Notes' })).status).toBe(201);
      expect((await call(source, token, 'POST', '/schema/collections/notes/fields', { slug: 'title', label: 'Title', type: 'string' })).status).toBe(201);
      for (let n = 0; n < 5; n++) entries.push(await createEntry(`Before the backup ${n}`));
      for (let n = 0; n < 3; n++) {
        const text = `media file ${n}\n`.repeat(100 + n);
        media.push({ storageKey: (await uploadText(source, token, `file-${n}.txt`, text)).storageKey, text });
      }
    }, 180_000);

    afterAll(async () => {
      await Promise.all([source?.process.kill(), ...restored.map((server) => server.process.kill())]);
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    it('takes a consistent copy while the server keeps writing, which verifies and serves the same entries and files', { timeout: 180_000 }, async () => {
      // Entries created one after another, each acknowledged before the next: a snapshot holds a prefix of them.
      const written: { id: string; title: string }[] = [];
      let writing = true;
      const writer = (async () => {
        for (let n = 0; writing; n++) written.push(await createEntry(`During the backup ${n}`));
      })();
      await until(() => written.length >= 3, 'the first writes', 30_000);
      const before = written.length;
      const result = await runCli(['backup', path.join(dir, 'backups')], env, 90_000);
      const after = written.length;
      writing = false;
      await writer;
      expect(result.code, result.stderr).toBe(0);
      expect(after, 'the server took writes while the backup ran').toBeGreaterThan(before);

      const taken = backupsIn(path.join(dir, 'backups'));
      expect(taken).toHaveLength(1);
      firstBackup = path.join(dir, 'backups', taken[0]!);
      expect(result.stdout).toContain(`backup written to ${firstBackup}`);
      expect(fs.statSync(firstBackup).mode & 0o777, 'readable by its owner only').toBe(0o700);
      expect(result.stdout).toMatch(/media: 3 files/);
      const manifest = JSON.parse(fs.readFileSync(path.join(firstBackup, 'manifest.json'), 'utf8'));
      const copied = manifest.counts.entries - entries.length;
      expect(copied).toBeGreaterThanOrEqual(before);
      expect(copied).toBeLessThanOrEqual(written.length);
      expect(result.stdout).toContain(`${manifest.counts.entries} entries`);
      expect(manifest.media.files.map((file: { key: string }) => file.key).sort()).toEqual(media.map((file) => file.storageKey).sort());
      expect(manifest.media.missing).toEqual([]);

      const verified = await runCli(['backup', '--verify', firstBackup], env);
      expect(verified.code, verified.stderr).toBe(0);
      expect(verified.stdout).toContain('integrity ok');
      expect(verified.stdout).toContain('media: 3 of 3 files sound');
      expect(verified.stdout).toContain('the backup is sound');

      // A second server on a copy of the backup (the backup itself stays as taken).
      const restoredDir = path.join(dir, 'restored');
      fs.cpSync(firstBackup, restoredDir, { recursive: true });
      const server = await startServer({ DATABASE_URL: `file:${path.join(restoredDir, 'folio.db')}`, MEDIA_DIR: path.join(restoredDir, 'media') });
      restored.push(server);
      const snapshot = [...entries, ...written.slice(0, copied)];
      for (const entry of snapshot) {
        const [there, here] = await Promise.all([call(server, token, 'GET', `/content/notes/${entry.id}`), call(source, token, 'GET', `/content/notes/${entry.id}`)]);
        expect(there.status, entry.title).toBe(200);
        expect(there.body.data.item.data.title).toBe(entry.title);
        expect(there.body.data.item.createdAt).toBe(here.body.data.item.createdAt);
      }
      for (const entry of written.slice(copied)) expect((await call(server, token, 'GET', `/content/notes/${entry.id}`)).status, entry.title).toBe(404);
      for (const file of media) {
        const served = await fileBytes(server, token, file.storageKey);
        expect(served.status).toBe(200);
        expect(sha256(served.bytes)).toBe(sha256(new TextEncoder().encode(file.text)));
      }
    });

    it('names the media files gone from storage when it copied them', { timeout: 60_000 }, async () => {
      const gone = await uploadText(source, token, 'gone.txt', 'soon gone\n');
      fs.rmSync(path.join(dir, 'site', 'media', gone.storageKey));
      const result = await runCli(['backup', path.join(dir, 'gone')], env, 60_000);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain(`media already gone from storage when copied (deleted since the snapshot, or never arrived): ${gone.storageKey}`);
      const [backup] = backupsIn(path.join(dir, 'gone'));
      const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'gone', backup!, 'manifest.json'), 'utf8'));
      expect(manifest.media.missing).toEqual([gone.storageKey]);
      const verified = await runCli(['backup', '--verify', path.join(dir, 'gone', backup!)], env);
      expect(verified.code, verified.stderr).toBe(0);
      expect(verified.stdout).toContain(`1 already gone from storage when the backup was taken: ${gone.storageKey}`);
    });

    it('keeps the newest N backups and leaves everything else in the folder alone', { timeout: 120_000 }, async () => {
      const folder = path.join(dir, 'kept');
      fs.mkdirSync(folder);
      fs.writeFileSync(path.join(folder, 'notes.txt'), 'not a backup');
      // Named like a backup, without a manifest: not one.
      fs.mkdirSync(path.join(folder, 'folio-backup-20000101T000000.000Z'));
      const taken: string[] = [];
      for (let n = 0; n < 3; n++) {
        const result = await runCli(['backup', folder, '--keep', '2'], env, 60_000);
        expect(result.code, result.stderr).toBe(0);
        taken.push(path.basename(result.stdout.match(/backup written to (\S+)/)![1]!));
        if (n === 2) expect(result.stdout).toContain(`removed 1 older backup (keeping 2): ${taken[0]}`);
      }
      expect(fs.readdirSync(folder).sort()).toEqual(['folio-backup-20000101T000000.000Z', ...taken.slice(1), 'notes.txt'].sort());
    });

    it('fails --verify on a damaged backup, naming the damage', { timeout: 120_000 }, async () => {
      const manifest = JSON.parse(fs.readFileSync(path.join(firstBackup, 'manifest.json'), 'utf8'));
      const verify = async (target: string) => {
        const result = await runCli(['backup', '--verify', target], env);
        expect(result.code, result.stdout).toBe(1);
        return result.stderr;
      };

      const noMedia = copyOf(firstBackup, 'no-media');
      fs.rmSync(path.join(noMedia, 'media', media[1]!.storageKey));
      expect(await verify(noMedia)).toContain(`media file ${media[1]!.storageKey} is missing`);

      const truncated = copyOf(firstBackup, 'truncated');
      const dbFile = path.join(truncated, 'folio.db');
      fs.truncateSync(dbFile, Math.floor(manifest.database.size / 2));
      const cut = await verify(path.join(truncated, 'folio.db'));
      expect(cut).toContain(`the database file is ${Math.floor(manifest.database.size / 2)} bytes, the manifest says ${manifest.database.size}`);

      const changed = copyOf(firstBackup, 'changed');
      const changedFile = path.join(changed, 'folio.db');
      const bytes = fs.readFileSync(changedFile);
      // A byte of the last page: in the data, past the header SQLite would reject outright.
      bytes[bytes.length - 100] = bytes[bytes.length - 100]! ^ 0xff;
      fs.writeFileSync(changedFile, bytes);
      expect(await verify(changed)).toContain("the database file's SHA-256 is not the manifest's");

      const newer = copyOf(firstBackup, 'newer');
      const database = new SqliteDatabase(path.join(newer, 'folio.db'));
      database.prepare('insert into folio_migrations (name, timestamp) values (?, ?)').run('9999_from_the_future', new Date().toISOString());
      database.close();
      expect(await verify(newer)).toMatch(/the schema is at migration 9999_from_the_future, which this Folio \([^)]+\) does not know: the backup comes from Folio/);

      const missing = await runCli(['backup', '--verify', path.join(dir, 'no-such-backup')], env);
      expect(missing.code).toBe(1);
      expect(missing.stderr).toContain('Nothing at');
    });
  });
}
