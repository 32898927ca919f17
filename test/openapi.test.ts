import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/harness.ts';
import { apiBasePath, createApp } from '../src/app.ts';
import pino from 'pino';

describe('OpenAPI document', () => {
  let t: TestApp;
  let document: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- a JSON document under test
  beforeAll(async () => {
    t = await createTestApp();
    const response = await t.request('GET', `${apiBasePath}/openapi.json`);
    expect(response.status).toBe(200);
    document = response.body;
  });
  afterAll(() => t.close());

  it('describes the sign-in endpoints: public ones without security, session cookies set where they are', () => {
    const path = (p: string) => document.paths[`${apiBasePath}${p}`];
    expect(path('/setup/status').get.security).toEqual([]);
    expect(path('/auth/passkey/verify').post.security).toEqual([]);
    expect(path('/auth/passkey/verify').post.responses['200'].headers['Set-Cookie']).toBeDefined();
    expect(Object.keys(path('/auth/magic-link/verify').get.responses)).toContain('303');
    expect(path('/auth/passkey/{id}').delete.security).toEqual([{ bearerAuth: [] }, { sessionCookie: [] }]);
    expect(document.components.securitySchemes.sessionCookie).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'folio_session' });
    expect(path('/auth/invite').post['x-required-scope']).toBe('admin');
  });

  it('is OpenAPI 3.1 and public', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.title).toBe('Folio API');
  });

  it('describes every registered API route, the reference itself included', () => {
    const app = createApp({ config: t.config, db: t.db, storage: t.storage, log: pino({ level: 'silent' }) });
    const registered = app.routes
      .filter((route) => route.method !== 'ALL' && route.path.startsWith(`${apiBasePath}/`));
    expect(registered.length).toBeGreaterThan(10);
    const missing = registered
      .map((route) => ({ method: route.method.toLowerCase(), path: route.path.replace(/:(\w+)(\{[^}]*\})?/g, '{$1}') }))
      .filter(({ method, path }) => !document.paths[path]?.[method])
      .map(({ method, path }) => `${method.toUpperCase()} ${path}`);
    expect(missing).toEqual([]);
  });

  it('gives every operation a unique id, a tag and responses', () => {
    const ids: string[] = [];
    for (const [path, methods] of Object.entries<Record<string, any>>(document.paths)) { // eslint-disable-line @typescript-eslint/no-explicit-any
      for (const [method, operation] of Object.entries(methods)) {
        ids.push(operation.operationId);
        expect(operation.tags, `${method} ${path}`).toHaveLength(1);
        expect(Object.keys(operation.responses), `${method} ${path}`).toContain('400');
      }
    }
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('documents inputs from the same schemas that validate them', () => {
    const listUsers = document.paths[`${apiBasePath}/admin/users`].get;
    const limit = listUsers.parameters.find((parameter: { name: string }) => parameter.name === 'limit');
    expect(limit).toMatchObject({ in: 'query', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 50 } });
    expect(listUsers['x-required-scope']).toBe('admin');
    const createToken = document.paths[`${apiBasePath}/admin/tokens`].post;
    const body = createToken.requestBody.content['application/json'].schema;
    expect(body.required).toEqual(['userId', 'name', 'scopes']);
    expect(body.additionalProperties).toBe(false);
    expect(Object.keys(createToken.responses)).toEqual(expect.arrayContaining(['201', '401', '403']));
  });

  it('documents the TypeScript representation of GET /schema', () => {
    const content = document.paths[`${apiBasePath}/schema`].get.responses['200'].content;
    expect(Object.keys(content).sort()).toEqual(['application/json', 'text/typescript']);
    expect(content['text/typescript'].schema).toEqual({ type: 'string' });
  });

  it('resolves every $ref to a component', () => {
    const refs = JSON.stringify(document).match(/"\$ref":"[^"]+"/g) ?? [];
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) {
      const name = ref.replace(/^"\$ref":"#\/components\/schemas\//, '').replace(/"$/, '');
      expect(document.components.schemas[name], ref).toBeDefined();
    }
  });

  it('serves the interactive reference page and its assets from this server', async () => {
    const page = await t.request('GET', `${apiBasePath}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    expect(page.body).toContain(`${apiBasePath}/docs/swagger-ui-bundle.js`);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    for (const asset of ['swagger-ui-bundle.js', 'swagger-ui.css', 'init.js']) {
      const response = await t.request('GET', `${apiBasePath}/docs/${asset}`);
      expect(response.status, asset).toBe(200);
      expect(String(response.body).length, asset).toBeGreaterThan(50);
    }
    expect((await t.request('GET', `${apiBasePath}/docs/init.js`)).body).toContain(`${apiBasePath}/openapi.json`);
  });
});
