import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './support/harness.ts';
import { openCliImportSetting, type CliImportSetting } from './support/import-cli.ts';
import type { MediaFixtureServer } from './support/media-fixtures.ts';
import { cleanEnv, cliPath, repoRoot, runCli, runProcess } from './support/process.ts';
import { allPages, importedEntries, sourceItems } from './support/wxr.ts';
import { generatedCounts, generatedExport, generatedSite } from './support/wxr-generator.ts';

/**
 * `folio import wxr` end to end: a generated site imported from the command line (progress on stderr,
 * the report on stdout; the fidelity suite does the same with WordPress's theme unit test and block
 * test data, test/fidelity/import-cli.test.ts), and an import whose CLI process is killed, then resumed.
 */
describe('folio import wxr', () => {
  let t: TestApp;
  let dir: string;
  let env: Record<string, string>;
  // The generated site's media site, on loopback: it has none of the files.
  let site: MediaFixtureServer;

  let setting: CliImportSetting;
  beforeAll(async () => {
    setting = await openCliImportSetting();
    ({ t, dir, env, site } = setting);
  });
  afterAll(() => setting.close());

  it('imports a generated site and a second export of it, printing progress and the report', { timeout: 120_000 }, async () => {
    const siteFile = path.join(dir, 'site.xml');
    fs.writeFileSync(siteFile, generatedSite({ site: site.origin }));
    const result = await runCli(['import', 'wxr', siteFile, '--media'], env, 90_000);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/importing Generated Site \(12 posts, 7 pages\) as job /);
    // 12 posts, 7 pages, 18 menu items and 5 attachments.
    expect(result.stderr).toMatch(/done 42\/42 \(100%\)/);
    const { state, report } = JSON.parse(result.stdout);
    expect(state).toBe('succeeded');
    expect(report).toMatchObject({ counts: { posts: 12, pages: 7 }, terms: 7, menus: 3, menuItems: 18, failed: [] });
    // Every file a 404: marked for manual handling, and the import done all the same.
    expect(report.media.downloads).toMatchObject({ total: 5, downloaded: 0, failed: 5 });
    expect(report.media.pending).toHaveLength(5);
    expect(site.hits.size).toBe(5);

    const entries = await importedEntries(t);
    const pages = new Map((await allPages<{ id: string; data: { parent?: string | null } }>(t, '/content/pages')).map((page) => [page.id, page]));
    const pageItems = sourceItems(siteFile).filter((candidate) => candidate.type === 'page');
    expect(pageItems.filter((item) => item.parent !== '0')).toHaveLength(4);
    for (const item of pageItems) {
      expect(pages.get(entries.get(item.id)!)!.data.parent ?? null, item.id).toBe(item.parent === '0' ? null : entries.get(item.parent)!);
    }

    // Posts 10–16 and the pages again: only posts 13–16 are new.
    const secondFile = path.join(dir, 'second.xml');
    fs.writeFileSync(secondFile, generatedSite({ site: site.origin, postIds: [10, 11, 12, 13, 14, 15, 16], menus: false, attachments: false }));
    const again = await runCli(['import', 'wxr', secondFile], env, 90_000);
    expect(again.code, again.stderr).toBe(0);
    const second = JSON.parse(again.stdout).report;
    expect(second).toMatchObject({ counts: { posts: 4 }, alreadyImported: 3 + 7, failed: [] });
    const imported = await importedEntries(t);
    expect(sourceItems(secondFile).filter((item) => ['post', 'page'].includes(item.type) && !imported.has(item.id))).toEqual([]);
  });

  it('resumes an import whose process was killed, with nothing lost or doubled', { timeout: 180_000 }, async () => {
    const posts = 2000;
    const file = path.join(dir, 'generated.xml');
    await pipeline(generatedExport({ posts, site: 'https://cli.example.com' }), fs.createWriteStream(file));
    // A lease that outlasts the start of the resuming run: that run finds the job still held by the dead process.
    const child = spawn(process.execPath, [cliPath, 'import', 'wxr', file], { cwd: repoRoot, env: cleanEnv({ ...env, JOB_LEASE_MS: '15000' }), stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise((resolve) => child.once('close', resolve));
    // Killed once a first batch has been written (a progress line of the items pass).
    await new Promise<void>((resolve, reject) => {
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
        if (/items \d+\/\d+/.test(stderr)) resolve();
      });
      child.once('close', () => reject(new Error(`the import ended before it could be killed: ${stderr}`)));
    });
    child.kill('SIGKILL');
    await exited;
    const before = (await importedEntries(t)).size;

    const resumed = await runCli(['import', 'wxr', file, '--resume'], env, 150_000);
    expect(resumed.code, resumed.stderr).toBe(0);
    // Where the job stands and why nothing moves yet, at once, rather than silence until the dead process's lease lapses.
    expect(resumed.stderr).toMatch(/^folio: resuming import job \w+\nfolio: items [1-9]\d*\/\d+ .*\nfolio: job \w+ is still held by another process/);
    const { report } = JSON.parse(resumed.stdout);
    const counts = generatedCounts(posts);
    expect(report.counts).toEqual({ posts: counts.posts, pages: counts.pages });
    expect(report.alreadyImported).toBe(0);
    const rows = await t.db.kysely.selectFrom('import_items').select('source_id').where('kind', '=', 'post').where('source_key', '=', 'wxr:https://cli.example.com').execute();
    expect(rows).toHaveLength(posts);
    expect(before).toBeLessThan((await importedEntries(t)).size);
  });

  it('on Ctrl-C prints the command that resumes it and hands the job back; that command, typed elsewhere, goes on at once', { timeout: 180_000 }, async () => {
    const posts = 2000;
    const file = path.join(dir, 'interrupted.xml');
    await pipeline(generatedExport({ posts, site: 'https://interrupted.example.com' }), fs.createWriteStream(file));
    const child = spawn(process.execPath, [cliPath, 'import', 'wxr', file], { cwd: repoRoot, env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
    // Interrupted once a first batch has been written (a progress line of the items pass), as a person would press Ctrl-C.
    await new Promise<void>((resolve, reject) => {
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
        if (/items \d+\/\d+/.test(stderr)) resolve();
      });
      child.once('close', () => reject(new Error(`the import ended before it could be interrupted: ${stderr}`)));
    });
    child.kill('SIGINT');
    expect(await exited, stderr).toBe(130);
    expect(stdout).toBe('');
    expect(stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
    const jobId = /as job (\w+)/.exec(stderr)![1]!;
    const command = /continue it with: (.+)$/m.exec(stderr)?.[1];
    expect(command, stderr).toMatch(/^DATABASE_URL=\S+ MEDIA_DIR=\S+ npx folio import wxr \S*interrupted\.xml --resume$/);
    // Handed back, not left to a lease that lapses only after JOB_LEASE_MS.
    const job = await t.db.kysely.selectFrom('jobs').select(['state', 'progress']).where('id', '=', jobId).executeTakeFirstOrThrow();
    expect(job.state).toBe('queued');
    const saved = (JSON.parse(job.progress!) as { processed: number }).processed;
    expect(saved).toBeGreaterThan(0);

    // Typed in another terminal: no Folio variable of this shell, the default lease, folio from this checkout.
    const elsewhere = fs.mkdtempSync(path.join(dir, 'terminal-'));
    const typed = command!.replace('npx folio', `'${process.execPath}' '${cliPath}'`);
    const resumed = await runProcess('sh', ['-c', typed], { LOG_LEVEL: 'warn' }, { cwd: elsewhere, timeoutMs: 150_000 });
    expect(resumed.code, resumed.stderr).toBe(0);
    const lines = resumed.stderr.trim().split('\n');
    expect(lines[0]).toBe(`folio: resuming import job ${jobId}`);
    // Its progress from the first moment, where the interrupted run left it; no wait for another process.
    const first = /^folio: items (\d+)\/\d+ /.exec(lines[1] ?? '');
    expect(first, resumed.stderr).not.toBeNull();
    expect(Number(first![1])).toBeGreaterThanOrEqual(saved);
    expect(resumed.stderr).not.toMatch(/still held/);
    expect(JSON.parse(resumed.stdout).report.counts).toEqual({ posts: generatedCounts(posts).posts, pages: generatedCounts(posts).pages });
    expect(fs.existsSync(path.join(elsewhere, 'data'))).toBe(false);
  });
});
