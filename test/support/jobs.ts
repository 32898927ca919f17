import pino from 'pino';
import { createJobRunner, type JobRunner, type RunnerOptions } from '../../src/jobs/runner.ts';
import { jobKinds } from '../../src/server.ts';
import type { TestApp } from './harness.ts';

/** A job runner on the test app's database, clock and entry listeners, with the server's job kinds unless told otherwise. */
export function testJobRunner(t: TestApp, options: Partial<RunnerOptions> = {}): JobRunner {
  const { principal: _principal, ...ctx } = t.systemContext();
  return createJobRunner({ ...ctx, log: pino({ level: 'silent' }) }, { jobs: jobKinds, concurrency: 4, intervalMs: 100, ...options });
}
