import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api } from './support/content.ts';
import { createTestApp, type TestApp } from './support/harness.ts';
import { testJobRunner } from './support/jobs.ts';
import { analyze, themeUnitTest } from './support/wxr.ts';

describe('smoke', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  it('imports', async () => {
    const analysis = await analyze(t, themeUnitTest);
    console.log(analysis.status, JSON.stringify(analysis.body).slice(0, 3000));
    const id = analysis.body.data.analysisId;
    const prep = await t.request('POST', `${api}/import/legacy/prepare`, { token: t.adminToken, body: { analysisId: id, postTypes: [{ name: 'post', collection: 'posts', enabled: true }, { name: 'page', collection: 'pages', enabled: true }] } });
    console.log(prep.status, JSON.stringify(prep.body));
    const exec = await t.request('POST', `${api}/import/legacy/execute`, { token: t.adminToken, body: { analysisId: id, options: { includeMedia: true } } });
    console.log(exec.status, JSON.stringify(exec.body));
    const runner = testJobRunner(t);
    await runner.runDue();
    const job = await t.request('GET', `${api}/import/jobs/${exec.body.data.item.id}`, { token: t.adminToken });
    console.log(job.status, JSON.stringify(job.body).slice(0, 6000));
    expect(job.body.data.item.state).toBe('succeeded');
  });
});
