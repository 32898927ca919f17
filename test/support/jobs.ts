import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { z } from 'zod';
import { createJobRunner, type JobRunner, type RunnerOptions } from '../../src/jobs/runner.ts';
import { jobKinds } from '../../src/server.ts';
import type { TestApp } from './harness.ts';
import { cleanEnv, repoRoot } from './process.ts';

/** A job runner on the test app's database, clock and entry listeners, with the server's job kinds unless told otherwise. */
export function testJobRunner(t: TestApp, options: Partial<RunnerOptions> = {}): JobRunner {
  const { principal: _principal, ...ctx } = t.systemContext();
  return createJobRunner({ ...ctx, log: pino({ level: 'silent' }) }, { jobs: jobKinds, concurrency: 4, intervalMs: 100, ...options });
}

/** The kind `job-worker.ts` runs in a child process: its handler never finishes, so the child can be killed mid-job. */
export const crashingKind = { kind: 'test.crashing', payload: z.object({ note: z.string() }) };

/** Spawns `job-worker.ts` on the database: it claims one `crashingKind` job, prints `running <id>` and hangs. */
export function spawnJobWorker(databaseUrl: string, leaseMs: number) {
  return spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('job-worker.ts', import.meta.url))], {
    cwd: repoRoot,
    env: cleanEnv({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', LEASE_MS: String(leaseMs) }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}
