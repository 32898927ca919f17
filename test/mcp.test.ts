import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp } from '../src/app.ts';
import type { Context, UserPrincipal } from '../src/core/context.ts';
import { access, defineOperation } from '../src/core/operation.ts';
import { createMcpEndpoint } from '../src/mcp/server.ts';
import { defineTool } from '../src/mcp/tool.ts';
import { mcpTools } from '../src/mcp/tools.ts';
import { createTestApp, expectError, expectSuccess, type TestApp } from './support/harness.ts';
import { serveMcp, type McpSocket } from './support/mcp.ts';

const mcp = '/_cms/api/mcp';
const bothTypes = 'application/json, text/event-stream';

interface RpcOptions {
  token?: string | null;
  accept?: string;
  headers?: Record<string, string>;
}

/** A raw JSON-RPC POST; `token: null` sends none. */
function rpc(t: TestApp, body: unknown, options: RpcOptions = {}) {
  const token = options.token === null ? undefined : (options.token ?? t.adminToken);
  return t.request('POST', mcp, { token, body, headers: { accept: options.accept ?? bothTypes, ...options.headers } });
}

function callTool(t: TestApp, name: string, args: unknown, options: RpcOptions = {}) {
  return rpc(t, { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, arguments: args } }, options);
}

/** The text of a tool result, asserting it is one text block. */
function resultText(result: object): string {
  const content = (result as { content: { type: string; text: string }[] }).content;
  expect(content).toHaveLength(1);
  expect(content[0]!.type).toBe('text');
  return content[0]!.text;
}

let slugCounter = 0;
const freshSlug = () => `mcp_${++slugCounter}_${Date.now().toString(36)}`;

describe('MCP transport', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('answers 401 with the resource metadata and the scopes the tools use (not admin), and names a refused token invalid_token', async () => {
    const metadata = 'resource_metadata="http://localhost/.well-known/oauth-protected-resource"';
    const scope = 'scope="content:read content:write media:read media:write schema:read schema:write"';
    for (const [token, challenge] of [
      [null, `Bearer ${metadata}, ${scope}`],
      ['ec_pat_not-a-real-token', `Bearer ${metadata}, ${scope}, error="invalid_token"`],
    ] as const) {
      const response = await rpc(t, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { token });
      expectError(response, 401, 'UNAUTHORIZED');
      expect(response.headers.get('www-authenticate')).toBe(challenge);
    }
  });

  it('takes the base URL of the metadata header from PUBLIC_URL when set', async () => {
    const app = createApp({ config: { ...t.config, publicUrl: 'https://cms.example.com/' }, db: t.db, storage: t.storage, log: pino({ level: 'silent' }), clock: t.clock });
    const response = await app.request(mcp, { method: 'POST', headers: { 'content-type': 'application/json', accept: bothTypes }, body: '{}' });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer resource_metadata="https:\/\/cms\.example\.com\/\.well-known\/oauth-protected-resource", scope="/);
  });

  it('refuses GET and DELETE with 405 and Allow: POST', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await t.request(method, mcp, { token: t.adminToken, headers: { accept: bothTypes } });
      expectError(response, 405, 'METHOD_NOT_ALLOWED');
      expect(response.headers.get('allow')).toBe('POST');
    }
  });

  it('answers a lone tools/list without initialize, as JSON, to a client accepting only application/json', async () => {
    const response = await rpc(t, { jsonrpc: '2.0', id: 'list-1', method: 'tools/list' }, { accept: 'application/json' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('mcp-session-id')).toBeNull();
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    expect(response.body.id).toBe('list-1');
    expect(response.body.result.tools.map((tool: { name: string }) => tool.name)).toEqual(mcpTools.map((tool) => tool.name));
  });

  it('answers initialize with the server info and the tools capability, and ping', async () => {
    const init = await rpc(t, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    expect(init.status).toBe(200);
    expect(init.body.result.protocolVersion).toBe('2025-06-18');
    expect(init.body.result.serverInfo.name).toBe('folio');
    expect(init.body.result.capabilities.tools).toBeDefined();
    const ping = await rpc(t, { jsonrpc: '2.0', id: 2, method: 'ping' });
    expect(ping.body).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
  });

  it('answers 202 with no body to notifications', async () => {
    const response = await rpc(t, { jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(response.status).toBe(202);
    expect(response.body).toBe('');
  });

  it('answers a batch with one response per request, in order', async () => {
    const response = await rpc(t, [
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 'b', method: 'tools/list' },
    ]);
    expect(response.status).toBe(200);
    expect(response.body.map((message: { id: unknown }) => message.id)).toEqual([1, 'b']);
    expect(response.body[1].result.tools.length).toBe(mcpTools.length);
  });

  it('refuses what is not a JSON-RPC POST it can answer', async () => {
    const cases: { options: Parameters<TestApp['request']>[2]; status: number; code: number }[] = [
      { options: { rawBody: '{"jsonrpc":', headers: { 'content-type': 'application/json', accept: bothTypes } }, status: 400, code: -32700 },
      { options: { body: { hello: 'world' }, headers: { accept: bothTypes } }, status: 400, code: -32600 },
      { options: { body: [], headers: { accept: bothTypes } }, status: 400, code: -32600 },
      // Close to a request, but not one: a key too many, an id that is no integer, another version, params that are no object.
      { options: { body: { jsonrpc: '2.0', id: 1, method: 'ping', extra: true }, headers: { accept: bothTypes } }, status: 400, code: -32600 },
      { options: { body: { jsonrpc: '2.0', id: 1.5, method: 'ping' }, headers: { accept: bothTypes } }, status: 400, code: -32600 },
      { options: { body: { jsonrpc: '1.0', id: 1, method: 'ping' }, headers: { accept: bothTypes } }, status: 400, code: -32600 },
      { options: { body: { jsonrpc: '2.0', id: 1, method: 'ping', params: [] }, headers: { accept: bothTypes } }, status: 400, code: -32600 },
      { options: { body: { jsonrpc: '2.0', id: 1, method: 'ping', params: null }, headers: { accept: bothTypes } }, status: 400, code: -32600 },
      { options: { rawBody: '{"jsonrpc":"2.0","id":1,"method":"ping"}', headers: { 'content-type': 'text/plain', accept: bothTypes } }, status: 415, code: -32000 },
      { options: { body: { jsonrpc: '2.0', id: 1, method: 'ping' }, headers: { accept: 'text/html' } }, status: 406, code: -32000 },
      { options: { body: { jsonrpc: '2.0', id: 1, method: 'ping' }, headers: { accept: bothTypes, 'mcp-protocol-version': '1999-01-01' } }, status: 400, code: -32000 },
    ];
    for (const { options, status, code } of cases) {
      const response = await t.request('POST', mcp, { token: t.adminToken, ...options });
      expect(response.status, JSON.stringify(options)).toBe(status);
      expect(response.body.jsonrpc).toBe('2.0');
      expect(response.body.id).toBeNull();
      expect(response.body.error.code, JSON.stringify(options)).toBe(code);
    }
  });

  it('answers an unknown method and an unknown tool with JSON-RPC errors', async () => {
    const method = await rpc(t, { jsonrpc: '2.0', id: 3, method: 'resources/list' });
    expect(method.body.error.code).toBe(-32601);
    const params = await rpc(t, { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { arguments: {} } });
    expect(params.body.error.code).toBe(-32602);
    expect(params.body.error.message).toContain('name');
    const tool = await callTool(t, 'no_such_tool', {});
    expect(tool.body).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32602, message: 'Unknown tool: no_such_tool' } });
    for (const bad of [{ name: 7 }, { name: 'schema_list_collections', arguments: [] }, { name: 'schema_list_collections', arguments: null }]) {
      const response = await rpc(t, { jsonrpc: '2.0', id: 5, method: 'tools/call', params: bad });
      expect(response.body.error.code, JSON.stringify(bad)).toBe(-32602);
    }
  });

  it('answers requests that carry _meta, a task or a string id like any other', async () => {
    const meta = { progressToken: 'p1' };
    const withMeta = await rpc(t, { jsonrpc: '2.0', id: 'm', method: 'tools/call', params: { name: 'schema_list_collections', arguments: {}, _meta: meta, task: { ttl: 1000 } } });
    expect(withMeta.status).toBe(200);
    expect(withMeta.body.id).toBe('m');
    expect(Array.isArray(withMeta.body.result.structuredContent.items)).toBe(true);
    const ping = await rpc(t, { jsonrpc: '2.0', id: 'p', method: 'ping', params: { _meta: meta } });
    expect(ping.body).toEqual({ jsonrpc: '2.0', id: 'p', result: {} });
  });
});

describe('MCP access', () => {
  let t: TestApp;
  let contentReader: string;
  let editor: string;
  beforeAll(async () => {
    t = await createTestApp();
    contentReader = (await t.userWithToken(50, ['content:read'])).token;
    // An admin's token with both schema scopes, then the admin demoted to Editor: schema:write is cut at once.
    const demoted = await t.userWithToken(50, ['schema:read', 'schema:write']);
    expectSuccess(await t.request('PATCH', `/_cms/api/admin/users/${demoted.user.id}`, { token: t.adminToken, body: { role: 40 } }));
    editor = demoted.token;
  });
  afterAll(() => t.close());

  // Until issue 29 (item 13) this was HTTP 200 with the JSON-RPC error alone; the body is unchanged.
  it('answers a tool outside the token scopes with 403, an insufficient_scope challenge and the JSON-RPC error, before reading the arguments', async () => {
    for (const args of [{}, { slug: 42, unknown: true }]) {
      const response = await callTool(t, 'schema_get_collection', args, { token: contentReader });
      expect(response.status).toBe(403);
      expect(response.headers.get('content-type')).toBe('application/json');
      // What the token has that tools use, and what it lacks: asking for exactly this loses nothing.
      expect(response.headers.get('www-authenticate')).toBe(
        'Bearer error="insufficient_scope", scope="content:read schema:read", resource_metadata="http://localhost/.well-known/oauth-protected-resource", error_description="Insufficient scope: requires schema:read"',
      );
      expect(response.body).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32600, message: 'Insufficient scope: requires schema:read' } });
    }
  });

  it('keeps scope refusals in a batch as JSON-RPC errors of a 200, beside the requests that ran', async () => {
    const response = await rpc(
      t,
      [
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'schema_list_collections', arguments: {} } },
        { jsonrpc: '2.0', id: 2, method: 'ping' },
      ],
      { token: contentReader },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('www-authenticate')).toBeNull();
    expect(response.body).toEqual([
      { jsonrpc: '2.0', id: 1, error: { code: -32600, message: 'Insufficient scope: requires schema:read' } },
      { jsonrpc: '2.0', id: 2, result: {} },
    ]);
  });

  it('answers a scope above the user’s role as a JSON-RPC error of a 200: asking for it again could not help', async () => {
    const write = await callTool(t, 'schema_create_collection', { slug: freshSlug(), label: 'X' }, { token: editor });
    expect(write.status).toBe(200);
    expect(write.headers.get('www-authenticate')).toBeNull();
    expect(write.body.error).toEqual({ code: -32600, message: 'Insufficient scope: requires schema:write' });
    const read = await callTool(t, 'schema_list_collections', {}, { token: editor });
    expect(read.body.result.isError).toBeUndefined();
  });

  it('refuses a Subscriber the tools that show drafts, the trash or revisions with -32600 Insufficient role', async () => {
    const { token: subscriber } = await t.userWithToken(10, ['content:read']);
    expect((await callTool(t, 'schema_list_collections', {})).body.result.isError).toBeUndefined();
    const slug = freshSlug();
    expect((await callTool(t, 'schema_create_collection', { slug, label: 'Roles' })).body.result.isError).toBeUndefined();
    const calls: [string, Record<string, unknown>][] = [
      ['content_list_trashed', { collection: slug }],
      ['content_list', { collection: slug, status: 'draft' }],
    ];
    for (const [name, args] of calls) {
      const response = await callTool(t, name, args, { token: subscriber });
      expect(response.body).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32600, message: 'Insufficient role: requires Contributor' } });
    }
    expect((await callTool(t, 'content_list', { collection: slug }, { token: subscriber })).body.result.isError).toBeUndefined();
  });

  it('refuses a principal holding the scope below the minimum role with Insufficient role', async () => {
    const endpoint = createMcpEndpoint(mcpTools);
    const principal: UserPrincipal = { ...userPrincipal(40), scopes: ['schema:write'] };
    const response = await endpoint.handle(
      { jsonrpc: '2.0', id: 'r', method: 'tools/call', params: { name: 'schema_create_collection', arguments: { slug: freshSlug(), label: 'X' } } },
      { ...t.systemContext(), principal },
    );
    // A role refusal: no new authorization can help, so no scope to ask for (the transport answers 200).
    expect(response).toEqual({ message: { jsonrpc: '2.0', id: 'r', error: { code: -32600, message: 'Insufficient role: requires Admin' } } });
  });

  it('keeps concurrent callers apart: each request runs as its own principal, with its own id', async () => {
    const calls = Array.from({ length: 40 }, (_, index) => {
      const admin = index % 2 === 0;
      const body = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'schema_list_collections', arguments: {} } };
      return rpc(t, body, { token: admin ? t.adminToken : contentReader }).then((response) => ({ admin, response }));
    });
    for (const { admin, response } of await Promise.all(calls)) {
      expect(response.body.id).toBe(1);
      expect(response.status).toBe(admin ? 200 : 403);
      if (admin) expect(response.body.result.structuredContent.items).toBeInstanceOf(Array);
      else expect(response.body.error.message).toBe('Insufficient scope: requires schema:read');
    }
  });

  it('keeps requests dispatched in the same tick apart, with clients reusing the same id', async () => {
    const endpoint = createMcpEndpoint(mcpTools);
    const reader: UserPrincipal = { ...userPrincipal(50), scopes: ['content:read'] };
    const request = { jsonrpc: '2.0' as const, id: 1, method: 'tools/call', params: { name: 'schema_list_collections', arguments: {} } };
    const principals = Array.from({ length: 10 }, (_, index) => (index % 2 === 0 ? userPrincipal(50) : reader));
    const answers = await Promise.all(principals.map((principal) => endpoint.handle(request, { ...t.systemContext(), principal })));
    answers.forEach(({ message: response, missingScope }, index) => {
      expect(response.id).toBe(1);
      expect(missingScope).toBe(index % 2 === 0 ? undefined : 'schema:read');
      if (index % 2 === 0) expect('result' in response && response.result.structuredContent).toBeTruthy();
      else expect('error' in response && response.error.message).toBe('Insufficient scope: requires schema:read');
    });
  });

  it('answers a bug in an operation with -32603 and no detail, and logs it', async () => {
    const logged: string[] = [];
    const log = pino({ level: 'error' }, { write: (line: string) => logged.push(line) });
    const broken = defineTool({
      name: 'broken',
      title: 'Broken',
      description: 'Fails with a programming error',
      operation: defineOperation({
        name: 'test.broken',
        access: access.scope('content:read'),
        async run(): Promise<never> {
          throw new TypeError('secret table folio_users is missing');
        },
      }),
      input: z.strictObject({}),
      flag: 'read-only',
    });
    const endpoint = createMcpEndpoint([broken]);
    const context: Context = { ...t.systemContext(), log, principal: userPrincipal(50) };
    const response = await endpoint.handle({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'broken', arguments: {} } }, context);
    expect(response).toEqual({ message: { jsonrpc: '2.0', id: 9, error: { code: -32603, message: 'Internal error' } } });
    expect(logged.join('')).toContain('secret table folio_users is missing');
  });
});

function userPrincipal(role: number): UserPrincipal {
  return { kind: 'user', userId: 'U1', email: 'u@example.com', name: 'U', role, scopes: ['admin'], credential: { type: 'token', id: 'T1' } };
}

describe('schema tools', () => {
  let t: TestApp;
  let socket: McpSocket;
  let client: Client;
  beforeAll(async () => {
    t = await createTestApp();
    socket = await serveMcp(t);
    client = await socket.connect(t.adminToken);
  });
  afterAll(async () => {
    await socket.close();
    await t.close();
  });

  it('lists the six schema tools with JSON Schemas of their arguments and the spec flags', async () => {
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    const flags = (name: string) => {
      const { readOnlyHint, destructiveHint } = byName.get(name)!.annotations!;
      return { readOnlyHint, destructiveHint };
    };
    expect(flags('schema_list_collections')).toEqual({ readOnlyHint: true, destructiveHint: undefined });
    expect(flags('schema_get_collection')).toEqual({ readOnlyHint: true, destructiveHint: undefined });
    expect(flags('schema_create_collection')).toEqual({ readOnlyHint: false, destructiveHint: false });
    expect(flags('schema_create_field')).toEqual({ readOnlyHint: false, destructiveHint: false });
    expect(flags('schema_delete_collection')).toEqual({ readOnlyHint: false, destructiveHint: true });
    expect(flags('schema_delete_field')).toEqual({ readOnlyHint: false, destructiveHint: true });
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.annotations!.title).toBe(tool.title);
    }
    const create = byName.get('schema_create_collection')!.inputSchema;
    expect(create.required).toEqual(['slug', 'label']);
    expect(create.properties!.slug).toMatchObject({ pattern: '^[a-z][a-z0-9_]*$' });
    expect(byName.get('schema_create_field')!.inputSchema.required).toEqual(['collection', 'slug', 'label', 'type']);
    expect(byName.get('schema_delete_field')!.inputSchema.required).toEqual(['collection', 'fieldSlug']);
    expect(Object.keys(byName.get('schema_delete_collection')!.inputSchema.properties!)).toEqual(['slug', 'force']);
  });

  it('creates a collection and a field, returning the REST data as text and as structured content', async () => {
    const slug = freshSlug();
    const created = await client.callTool({ name: 'schema_create_collection', arguments: { slug, label: 'Posts', supports: ['drafts'] } });
    expect(created.isError).toBeUndefined();
    expect(JSON.parse(resultText(created))).toEqual(created.structuredContent);
    expect(created.structuredContent).toMatchObject({ item: { slug, label: 'Posts', supports: ['drafts'] } });

    const field = await client.callTool({ name: 'schema_create_field', arguments: { collection: slug, slug: 'title', label: 'Title', type: 'string', required: true } });
    expect(field.structuredContent).toMatchObject({ item: { slug: 'title', type: 'string', required: true } });

    const got = await client.callTool({ name: 'schema_get_collection', arguments: { slug } });
    const rest = expectSuccess(await t.request('GET', `/_cms/api/schema/collections/${slug}?includeFields=true`, { token: t.adminToken }));
    expect(got.structuredContent).toEqual(rest);
    expect(JSON.parse(resultText(got))).toEqual(rest);

    const listed = await client.callTool({ name: 'schema_list_collections', arguments: {} });
    expect(listed.structuredContent).toEqual(expectSuccess(await t.request('GET', '/_cms/api/schema/collections', { token: t.adminToken })));
  });

  it('deletes a field and a collection', async () => {
    const slug = freshSlug();
    await client.callTool({ name: 'schema_create_collection', arguments: { slug, label: 'Pages' } });
    await client.callTool({ name: 'schema_create_field', arguments: { collection: slug, slug: 'body', label: 'Body', type: 'text' } });
    const deletedField = await client.callTool({ name: 'schema_delete_field', arguments: { collection: slug, fieldSlug: 'body' } });
    expect(deletedField.structuredContent).toEqual({ success: true });
    const got = await client.callTool({ name: 'schema_get_collection', arguments: { slug } });
    expect((got.structuredContent as { item: { fields: unknown[] } }).item.fields).toEqual([]);

    const deleted = await client.callTool({ name: 'schema_delete_collection', arguments: { slug, force: false } });
    expect(deleted.structuredContent).toEqual({ success: true });
    const gone = await client.callTool({ name: 'schema_get_collection', arguments: { slug } });
    expect(gone.isError).toBe(true);
    expect(resultText(gone)).toBe(`NOT_FOUND: Collection ${slug} not found`);
  });

  it('reports operation failures as isError results in the REST error words', async () => {
    const slug = freshSlug();
    await client.callTool({ name: 'schema_create_collection', arguments: { slug, label: 'Once' } });
    const again = await client.callTool({ name: 'schema_create_collection', arguments: { slug, label: 'Twice' } });
    expect(again.isError).toBe(true);
    expect(resultText(again)).toMatch(/^DUPLICATE_SLUG: /);
    const reserved = await client.callTool({ name: 'schema_create_collection', arguments: { slug: 'media', label: 'Media' } });
    expect(resultText(reserved)).toMatch(/^RESERVED_SLUG: /);
    const noField = await client.callTool({ name: 'schema_delete_field', arguments: { collection: slug, fieldSlug: 'nope' } });
    expect(resultText(noField)).toMatch(/^NOT_FOUND: /);
  });

  it('reports invalid arguments as a VALIDATION_ERROR result naming each issue', async () => {
    const result = await client.callTool({ name: 'schema_create_collection', arguments: { slug: 'Bad-Slug', label: 'X', colour: 'red' } });
    expect(result.isError).toBe(true);
    const text = resultText(result);
    expect(text).toMatch(/^VALIDATION_ERROR: /);
    expect(text).toContain('slug: Must match ^[a-z][a-z0-9_]*$');
    expect(text).toContain('colour: Unknown key');
    const missing = await client.callTool({ name: 'schema_delete_field', arguments: { collection: 'x' } });
    expect(resultText(missing)).toMatch(/^VALIDATION_ERROR: .*fieldSlug/);
    const badType = await client.callTool({ name: 'schema_create_field', arguments: { collection: 'x', slug: 'a', label: 'A', type: 'colour' } });
    expect(resultText(badType)).toMatch(/^VALIDATION_ERROR: .*type/);
  });

  // Until issue 29 (item 13) the SDK client saw a JSON-RPC error (McpError -32600); now the HTTP 403,
  // which a client with an OAuth provider answers by asking for the scope (test/oauth-mcp-sdk.test.ts).
  it('raises the scope refusal as an HTTP 403 in an SDK client without OAuth', async () => {
    const reader = await socket.connect((await t.userWithToken(50, ['content:read'])).token);
    const error = await reader.callTool({ name: 'schema_list_collections', arguments: {} }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StreamableHTTPError);
    expect((error as StreamableHTTPError).code).toBe(403);
    expect((error as StreamableHTTPError).message).toContain('Insufficient scope: requires schema:read');
  });
});

describe('content and revision tools', () => {
  let t: TestApp;
  const collection = 'articles';

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tool results are arbitrary JSON
  async function result(name: string, args: unknown, token = t.adminToken): Promise<{ isError?: boolean; structuredContent?: any; content: unknown }> {
    const response = await callTool(t, name, args, { token });
    if (response.status !== 200 || !response.body.result) throw new Error(`${name}: ${response.status} ${JSON.stringify(response.body)}`);
    return response.body.result;
  }
  /** A successful tool call's data, checking the text and the structured content carry the same. */
  async function data(name: string, args: unknown) {
    const outcome = await result(name, args);
    if (outcome.isError) throw new Error(`${name}: ${resultText(outcome)}`);
    expect(JSON.parse(resultText(outcome))).toEqual(outcome.structuredContent);
    return outcome.structuredContent;
  }
  async function failure(name: string, args: unknown): Promise<string> {
    const outcome = await result(name, args);
    expect(outcome.isError, JSON.stringify(outcome)).toBe(true);
    return resultText(outcome);
  }
  const rest = async (path: string) => expectSuccess(await t.request('GET', `/_cms/api${path}`, { token: t.adminToken }));

  beforeAll(async () => {
    t = await createTestApp();
    await data('schema_create_collection', { slug: collection, label: 'Articles', supports: ['drafts', 'revisions', 'scheduling'] });
    await data('schema_create_field', { collection, slug: 'title', label: 'Title', type: 'string' });
  });
  afterAll(() => t.close());

  it('lists every tool with the flags of the spec tables', async () => {
    const response = await rpc(t, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const tools: { name: string; annotations: { readOnlyHint: boolean; destructiveHint?: boolean } }[] = response.body.result.tools;
    const kind = (tool: (typeof tools)[number]) => (tool.annotations.readOnlyHint ? 'read-only' : tool.annotations.destructiveHint ? 'destructive' : 'write');
    expect(Object.fromEntries(tools.map((tool) => [tool.name, kind(tool)]))).toEqual({
      content_list: 'read-only', content_get: 'read-only', content_create: 'write', content_update: 'write', content_delete: 'destructive',
      content_restore: 'write', content_permanent_delete: 'destructive', content_publish: 'write', content_unpublish: 'write',
      content_schedule: 'write', content_compare: 'read-only', content_discard_draft: 'destructive', content_list_trashed: 'read-only',
      content_duplicate: 'write', content_translations: 'read-only',
      schema_list_collections: 'read-only', schema_get_collection: 'read-only', schema_create_collection: 'write',
      schema_delete_collection: 'destructive', schema_create_field: 'write', schema_delete_field: 'destructive',
      media_list: 'read-only', media_get: 'read-only', media_update: 'write', media_delete: 'destructive',
      search: 'read-only',
      taxonomy_list: 'read-only', taxonomy_list_terms: 'read-only', taxonomy_create_term: 'write',
      menu_list: 'read-only', menu_get: 'read-only',
      revision_list: 'read-only', revision_restore: 'write',
      redirect_list: 'read-only', redirect_get: 'read-only', redirect_create: 'write', redirect_update: 'write', redirect_delete: 'destructive',
      comment_list: 'read-only', comment_moderate: 'destructive', comment_update: 'write', comment_reply: 'write',
    });
  });

  it('creates, reads, updates, publishes and unpublishes an entry, with the REST data', async () => {
    const { item } = await data('content_create', { collection, data: { title: 'Hello' } });
    expect(item).toMatchObject({ type: collection, slug: 'hello', status: 'draft', data: { title: 'Hello' } });
    expect(await data('content_get', { collection, id: item.id })).toEqual(await rest(`/content/${collection}/${item.id}`));
    expect(await data('content_get', { collection, id: 'hello' })).toEqual(await rest(`/content/${collection}/${item.id}`));

    const updated = (await data('content_update', { collection, id: item.id, data: { title: 'Hello again' }, _rev: item._rev })).item;
    expect(updated.data.title).toBe('Hello again');
    expect(await failure('content_update', { collection, id: item.id, data: { title: 'Stale' }, _rev: item._rev })).toMatch(/^CONFLICT: /);

    expect((await data('content_publish', { collection, id: item.id })).item.status).toBe('published');
    await data('content_update', { collection, id: item.id, data: { title: 'Staged' } });
    const compared = await data('content_compare', { collection, id: item.id });
    expect(compared).toEqual({ published: { title: 'Hello again' }, draft: { title: 'Staged' }, hasChanges: true });
    expect((await data('content_discard_draft', { collection, id: item.id })).item.data.title).toBe('Hello again');
    expect((await data('content_unpublish', { collection, id: item.id })).item.status).toBe('draft');

    const scheduledAt = new Date(t.clock.now().getTime() + 86_400_000).toISOString();
    expect((await data('content_schedule', { collection, id: item.id, scheduledAt })).item).toMatchObject({ status: 'scheduled', scheduledAt });
    expect((await data('content_translations', { collection, id: item.id })).items.map((member: { id: string }) => member.id)).toEqual([item.id]);
  });

  it('duplicates, trashes, restores and permanently deletes', async () => {
    const { item } = await data('content_create', { collection, data: { title: 'Original' }, status: 'published' });
    const copy = (await data('content_duplicate', { collection, id: item.id })).item;
    expect(copy).toMatchObject({ status: 'draft', data: { title: 'Original (Copy)' } });
    expect(copy.id).not.toBe(item.id);

    expect(await data('content_delete', { collection, id: copy.id })).toEqual({ success: true });
    const trashed = await data('content_list_trashed', { collection });
    expect(trashed).toEqual(await rest(`/content/${collection}/trash`));
    expect(trashed.items.map((entry: { id: string }) => entry.id)).toContain(copy.id);
    expect(await failure('content_permanent_delete', { collection, id: item.id })).toBe('VALIDATION_ERROR: id: The entry must be moved to the trash first');
    expect((await data('content_restore', { collection, id: copy.id })).item.deletedAt).toBeUndefined();
    await data('content_delete', { collection, id: copy.id });
    expect(await data('content_permanent_delete', { collection, id: copy.id })).toEqual({ success: true });
    expect(await failure('content_get', { collection, id: copy.id })).toMatch(/^NOT_FOUND: /);
  });

  it('pages content_list like REST and holds limit to 1-100 (JSON integers only)', async () => {
    for (let index = 0; index < 3; index++) await data('content_create', { collection, data: { title: `Page ${index}` } });
    const first = await data('content_list', { collection, limit: 2 });
    expect(first).toEqual(await rest(`/content/${collection}?limit=2`));
    expect(first.items).toHaveLength(2);
    const second = await data('content_list', { collection, limit: 2, cursor: first.nextCursor });
    expect(second.items[0].id).not.toBe(first.items[1].id);
    expect((await data('content_list', { collection, limit: 100 })).nextCursor).toBeUndefined();
    for (const limit of [0, 101, 2.5, '5']) {
      expect(await failure('content_list', { collection, limit })).toMatch(/^VALIDATION_ERROR: .*limit/);
      expect(await failure('content_list_trashed', { collection, limit })).toMatch(/^VALIDATION_ERROR: .*limit/);
    }
    expect(await failure('content_list', { collection, status: 'archived' })).toMatch(/^VALIDATION_ERROR: .*status/);
  });

  it('lists and restores revisions, with revision_list limit 1-50 (default 20)', async () => {
    const { item } = await data('content_create', { collection, data: { title: 'v1' } });
    for (let version = 2; version <= 22; version++) await data('content_update', { collection, id: item.id, data: { title: `v${version}` } });
    const listed = await data('revision_list', { collection, id: item.id });
    expect(listed.items).toHaveLength(20);
    expect(listed.items[0].data.title).toBe('v22');
    expect((await data('revision_list', { collection, id: item.id, limit: 50 })).items).toHaveLength(22);
    expect(await failure('revision_list', { collection, id: item.id, limit: 51 })).toMatch(/^VALIDATION_ERROR: .*limit/);
    expect(await failure('revision_list', { collection, id: item.id, limit: 0 })).toMatch(/^VALIDATION_ERROR: .*limit/);

    const oldest = listed.items.at(-1);
    const restored = await data('revision_restore', { revisionId: oldest.id });
    expect(restored.item).toMatchObject({ id: item.id, status: 'draft', data: { title: oldest.data.title } });
  });

  it('refuses arguments holding text that is not well-formed Unicode, storing nothing', async () => {
    const before = (await data('content_list', { collection, limit: 100 })).items.length;
    // The request body is JSON.stringify's, which writes a lone surrogate as the escape \ud800.
    expect(await failure('content_create', { collection, data: { title: 'x\ud800y' } })).toBe(
      'VALIDATION_ERROR: data.title: Must be well-formed Unicode (a lone surrogate such as \\ud800 is not)',
    );
    expect(await failure('content_create', { collection, data: { ['t\udc00']: 'x' } })).toMatch(/^VALIDATION_ERROR: data\.t\udc00: Must be well-formed Unicode/);
    expect(await failure('content_list', { collection, orderBy: '\ud800' })).toMatch(/^VALIDATION_ERROR: orderBy: Must be well-formed Unicode/);
    expect((await data('content_list', { collection, limit: 100 })).items).toHaveLength(before);
  });

  it('needs content scopes: a schema-only token is refused before its arguments are read', async () => {
    const { token } = await t.userWithToken(50, ['schema:read']);
    const read = await callTool(t, 'content_list', { collection, limit: 0 }, { token });
    expect(read.status).toBe(403);
    expect(read.headers.get('www-authenticate')).toContain('error="insufficient_scope", scope="content:read schema:read"');
    expect(read.body.error).toEqual({ code: -32600, message: 'Insufficient scope: requires content:read' });
    const write = await callTool(t, 'content_create', { collection, data: {} }, { token });
    expect(write.status).toBe(403);
    expect(write.headers.get('www-authenticate')).toContain('error="insufficient_scope", scope="content:write schema:read"');
    expect(write.body.error).toEqual({ code: -32600, message: 'Insufficient scope: requires content:write' });
  });
});
