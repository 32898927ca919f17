import type { Context as HonoContext, Hono } from 'hono';
import { ErrorCode, JSONRPCMessageSchema, SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCMessage, type JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Context } from '../core/context.ts';
import { hasOnlyKeys, isPlainObject } from '../core/plain-object.ts';
import { AppError, databaseUnavailable, unauthorized } from '../core/errors.ts';
import { answerAbortedRequest } from '../http/aborted.ts';
import { declaredLength, readBuffered, tooLarge, type BodyMemoryBudget } from '../http/body.ts';
import { failure } from '../http/envelope.ts';
import { requestOrigin, type OriginPolicy } from '../http/origin.ts';
import { requestHeader } from '../http/request-headers.ts';
import type { InRequestContext } from '../http/request-context.ts';
import type { AppEnv } from '../http/types.ts';
import type { Scope } from '../core/roles.ts';
import { bearerChallenge, scopesToAskFor, toolScopes } from './scope-challenge.ts';
import { createMcpEndpoint, type McpAnswer, type McpEndpoint } from './server.ts';
import type { Tool } from './tool.ts';

const jsonType = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/** What the SDK's transport accepts in one POST; batches exist only in protocol versions before 2025-06-18. */
const maxBatchSize = 100;

/**
 * `POST {basePath}/mcp`: stateless Streamable HTTP (DECISIONS §5). Each POST stands alone and is
 * answered with JSON; GET and DELETE get the API's 405 (no event stream, no session to close).
 */
export interface McpOptions {
  publicUrl: string | undefined;
  /** JSON-RPC bodies are JSON bodies: the app's limit and memory budget apply (http/body.ts). */
  bodyLimit: number;
  budget: BodyMemoryBudget;
  /** Which browser origins and Host names may call (DNS rebinding, decisions/0012). */
  origins: OriginPolicy;
  /** The request's context around the endpoint's handler (http/request-context.ts). */
  inRequest: InRequestContext;
}

export function mountMcp(app: Hono<AppEnv>, basePath: string, tools: readonly Tool[], { publicUrl, bodyLimit, budget, origins, inRequest }: McpOptions): void {
  const endpoint = createMcpEndpoint(tools);
  const offered = toolScopes(tools);
  const handle = async (c: HonoContext<AppEnv>): Promise<Response> => {
    // Before anything else, credentials included: a refused page must not even learn whether its token works.
    const refusal = origins.refusal(requestOrigin((name) => requestHeader(c, name), c.req.url));
    if (refusal !== undefined) return protocolError(c, 403, -32000, refusal);
    if ((declaredLength(c) ?? 0) > bodyLimit) return failure(c, tooLarge(bodyLimit));
    let context: Context;
    try {
      context = await c.get('resolveContext')(true);
      if (!context.principal) throw unauthorized();
    } catch (error) {
      if (!(error instanceof AppError && error.code === 'UNAUTHORIZED')) return internalError(c, error);
      // The header starts the client's OAuth discovery (mcp.md §5); `scope` is what to ask for: every
      // scope a tool uses, never `admin` (MCP authorization 2025-11-25, Scope Selection Strategy;
      // decisions/0036). RFC 6750 §3.1: a token that was sent and refused (unknown, expired, revoked,
      // for another audience) is named, so a client knows to refresh or sign in again; a request
      // without one gets no error code.
      const presented = /^bearer\s+\S/i.test(requestHeader(c, 'authorization') ?? '');
      const challenge = bearerChallenge({ resource_metadata: resourceMetadataUrl(c, publicUrl), scope: offered.join(' '), error: presented ? 'invalid_token' : undefined });
      return failure(c, error, { 'www-authenticate': challenge });
    }
    try {
      const insufficientScope = (missing: Scope, description: string) =>
        bearerChallenge({
          error: 'insufficient_scope',
          scope: scopesToAskFor(context.principal?.kind === 'user' ? context.principal.scopes : [], missing, offered).join(' '),
          resource_metadata: resourceMetadataUrl(c, publicUrl),
          error_description: description,
        });
      return await answer(c, endpoint, context, () => readBuffered(c, bodyLimit, budget), insufficientScope);
    } catch (error) {
      // The body's own limits (413, and 503 while the server holds too many bodies) keep their envelope.
      if (error instanceof AppError) return failure(c, error);
      return internalError(c, error);
    }
  };
  app.post(`${basePath}/mcp`, inRequest(handle));
}

/** The protected resource metadata document (RFC 9728), which every challenge names. */
function resourceMetadataUrl(c: HonoContext<AppEnv>, publicUrl: string | undefined): string {
  return `${publicUrl?.replace(/\/+$/, '') ?? new URL(c.req.url).origin}/.well-known/oauth-protected-resource`;
}

async function answer(
  c: HonoContext<AppEnv>,
  endpoint: McpEndpoint,
  context: Context,
  readBody: () => Promise<string>,
  insufficientScope: (missing: Scope, description: string) => string,
): Promise<Response> {
  if (!acceptsJson(requestHeader(c, 'accept'))) return protocolError(c, 406, -32000, 'Not Acceptable: the client must accept application/json');
  if (!jsonType.test(requestHeader(c, 'content-type') ?? '')) {
    return protocolError(c, 415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
  }
  const version = requestHeader(c, 'mcp-protocol-version');
  if (version !== undefined && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
    return protocolError(c, 400, -32000, `Unsupported protocol version ${version}; supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}`);
  }
  const messages = parseMessages(c, await readBody());
  if (messages instanceof Response) return messages;

  const requests = messages.list.filter((message): message is JSONRPCRequest => 'method' in message && 'id' in message);
  // Notifications (initialized, cancelled) and replies change nothing on a server without sessions.
  if (requests.length === 0) return respond(c, 202, null);
  // In order, so a batch that creates then publishes does so in that order.
  const answers: McpAnswer[] = [];
  for (const request of requests) answers.push(await endpoint.handle(request, context));
  const single = answers[0]!;
  // A lone request refused for a scope the token could be given: 403 with the challenge (RFC 6750 §3.1),
  // and the JSON-RPC error as the body. A batch (protocol versions before 2025-06-18, which know no
  // step-up) keeps each refusal in its own response: one status cannot speak for requests that ran.
  if (!messages.batch && single.missingScope !== undefined && 'error' in single.message) {
    const refusal = single.message.error.message;
    return respond(c, 403, c.get('json').write(single.message), { 'www-authenticate': insufficientScope(single.missingScope, refusal) });
  }
  return respond(c, 200, c.get('json').write(messages.batch ? answers.map((each) => each.message) : single.message));
}

function parseMessages(c: HonoContext<AppEnv>, text: string): { list: JSONRPCMessage[]; batch: boolean } | Response {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return protocolError(c, 400, ErrorCode.ParseError, 'Parse error: the body is not valid JSON');
  }
  const batch = Array.isArray(body);
  const raw: unknown[] = Array.isArray(body) ? body : [body];
  if (raw.length === 0 || raw.length > maxBatchSize) {
    return protocolError(c, 400, ErrorCode.InvalidRequest, `Invalid Request: a batch holds 1 to ${maxBatchSize} messages`);
  }
  const list: JSONRPCMessage[] = [];
  for (const item of raw) {
    const plain = plainRequest(item);
    if (plain) {
      list.push(plain);
      continue;
    }
    const parsed = JSONRPCMessageSchema.safeParse(item);
    if (!parsed.success) return protocolError(c, 400, ErrorCode.InvalidRequest, 'Invalid Request: not a JSON-RPC 2.0 message');
    list.push(parsed.data);
  }
  return { list, batch };
}

/**
 * A request as clients send nearly all of them: `jsonrpc`, an `id`, a `method`, and `params` without
 * `_meta`. The SDK's schema accepts such a message as it is, so it is taken without running the
 * schema, whose parse and copy were a good part of the endpoint's garbage under load
 * (decisions/0068); anything else (a notification, a reply, `_meta`, a key too many, a bad id) goes
 * through the schema.
 */
function plainRequest(item: unknown): JSONRPCRequest | undefined {
  if (!hasOnlyKeys(item, requestKeys)) return undefined;
  const { jsonrpc, id, method, params } = item;
  if (jsonrpc !== '2.0' || typeof method !== 'string' || !(typeof id === 'string' || Number.isSafeInteger(id))) return undefined;
  if (params !== undefined && !(isPlainObject(params) && !Object.hasOwn(params, '_meta'))) return undefined;
  return item as JSONRPCRequest;
}

const requestKeys = ['jsonrpc', 'id', 'method', 'params'];

/** No header, `*\/*`, `application/*` or `application/json`: this server always answers JSON. */
function acceptsJson(accept: string | undefined): boolean {
  if (accept === undefined || accept.trim() === '') return true;
  return accept.split(',').some((range) => {
    const type = range.split(';')[0]!.trim().toLowerCase();
    return type === 'application/json' || type === '*/*' || type === 'application/*';
  });
}

/**
 * Transport-level failures: a JSON-RPC error without a request id, and nothing of the cause. A database
 * that does not answer (reading the caller's credentials) gets the REST envelope's 503 with Retry-After.
 */
function internalError(c: HonoContext<AppEnv>, error: unknown): Response {
  const aborted = answerAbortedRequest(c, error);
  if (aborted) return aborted;
  const unavailable = databaseUnavailable(error, c.get('log'));
  if (unavailable) return failure(c, unavailable);
  c.get('log').error({ err: error }, 'MCP request failed');
  return protocolError(c, 500, ErrorCode.InternalError, 'Internal error');
}

function protocolError(c: HonoContext<AppEnv>, status: number, code: number, message: string): Response {
  return respond(c, status, JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }));
}

/** Built with the request's fixed headers as a plain object, as the REST envelope does (http/envelope.ts). */
function respond(c: HonoContext<AppEnv>, status: number, body: string | null, extra: Record<string, string> = {}): Response {
  c.set('responseHeadersApplied', true);
  const headers = body === null ? c.get('responseHeaders') : { ...c.get('responseHeaders'), 'content-type': 'application/json', ...extra };
  return new Response(body, { status, headers });
}

/**
 * The endpoint's entry in the OpenAPI document, which describes every route under the API path. Its
 * tools are not REST operations: `tools/list` describes them, with a JSON Schema for each.
 */
export function describeMcpEndpoint(document: { paths?: unknown }, basePath: string): void {
  const error = (description: string) => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/JsonRpcMessage' } } } });
  const paths = document.paths as Record<string, unknown>;
  paths[`${basePath}/mcp`] = {
    post: {
      operationId: 'mcp',
      summary: 'MCP server (stateless Streamable HTTP, JSON responses)',
      description: 'JSON-RPC 2.0 messages of the Model Context Protocol: initialize (optional), ping, tools/list, tools/call. GET and DELETE answer 405.',
      tags: ['MCP'],
      security: [{ bearerAuth: [] }, { sessionCookie: [] }],
      requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/JsonRpcMessage' } } } },
      responses: {
        '200': { description: 'The JSON-RPC response (an array for a batch)', content: { 'application/json': { schema: {} } } },
        '202': { description: 'Notifications only: accepted, no body' },
        '400': error('Not JSON, not JSON-RPC 2.0, or an unsupported MCP-Protocol-Version'),
        '401': {
          description: 'Missing or invalid credential; WWW-Authenticate names the protected resource metadata and the scopes the tools use',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
        },
        '403': error(
          'A browser origin or a Host name this server does not answer to (DNS rebinding protection); or a tool call whose token lacks a scope the user may be given: WWW-Authenticate `Bearer error="insufficient_scope", scope="…"` names the scopes to ask for, the body is the JSON-RPC error',
        ),
        '406': error('The client does not accept application/json'),
        '415': error('The body is not declared as application/json'),
      },
    },
  };
  const components = (document as { components: { schemas: Record<string, unknown> } }).components.schemas;
  components.JsonRpcMessage = {
    type: 'object',
    properties: { jsonrpc: { const: '2.0' }, id: { type: ['string', 'integer', 'null'] }, method: { type: 'string' }, params: { type: 'object' } },
    required: ['jsonrpc'],
  };
}
