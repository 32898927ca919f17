import {
  CallToolRequestParamsSchema,
  ErrorCode,
  InitializeRequestParamsSchema,
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
  type CallToolResult,
  type InitializeResult,
  type JSONRPCErrorResponse,
  type JSONRPCRequest,
  type JSONRPCResultResponse,
  type ListToolsResult,
  type Result,
} from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import packageJson from '../../package.json' with { type: 'json' };
import type { Context } from '../core/context.ts';
import { AppError, databaseUnavailable } from '../core/errors.ts';
import { hasOnlyKeys, isPlainObject } from '../core/plain-object.ts';
import { JsonWriter, RawJson } from '../core/raw-json.ts';
import type { Scope } from '../core/roles.ts';
import { missingScope } from './scope-challenge.ts';
import type { Tool } from './tool.ts';

export type JsonRpcResponse = JSONRPCResultResponse | JSONRPCErrorResponse;

/** One request's answer; `missingScope` when a tool was refused for a scope the token could be given (the transport's 403). */
export interface McpAnswer {
  message: JsonRpcResponse;
  missingScope?: Scope;
}

export interface McpEndpoint {
  /** Answers one JSON-RPC request on behalf of the caller in `context`. */
  handle(request: JSONRPCRequest, context: Context): Promise<McpAnswer>;
}

class JsonRpcError extends Error {
  readonly code: number;
  /** Set when the refusal is a scope the caller's role allows: asking for it again can help. */
  readonly missingScope: Scope | undefined;
  constructor(code: number, message: string, missing?: Scope) {
    super(message);
    this.code = code;
    this.missingScope = missing;
  }
}

const instructions = 'Folio CMS: manage collections (schema), content entries and their revisions. Tool results are JSON, the same data as the REST API.';

/**
 * The server side of stateless MCP: a request is answered from its own message and the caller's
 * context alone. The methods are few (initialize, ping, tools/list, tools/call), so they are answered
 * here with the SDK's schemas and types rather than through its `Server`: that one serves one
 * connection at a time, and its per-message machinery measured about 25 µs of a ~95 µs tool call.
 */
export function createMcpEndpoint(tools: readonly Tool[]): McpEndpoint {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const listing: ListToolsResult = { tools: tools.map((tool) => tool.listing) };
  const json = new JsonWriter();

  const methods: Record<string, (params: unknown, context: Context) => Result | Promise<Result>> = {
    initialize(params): InitializeResult {
      const { protocolVersion } = readParams(InitializeRequestParamsSchema, params);
      return {
        protocolVersion: SUPPORTED_PROTOCOL_VERSIONS.includes(protocolVersion) ? protocolVersion : LATEST_PROTOCOL_VERSION,
        capabilities: { tools: { listChanged: false } },
        serverInfo: { name: 'folio', title: 'Folio CMS', version: packageJson.version },
        instructions,
      };
    },
    ping: () => ({}),
    'tools/list': () => listing,
    'tools/call'(params, context) {
      const { name, arguments: args } = plainCallParams(params) ?? readParams(CallToolRequestParamsSchema, params);
      const tool = byName.get(name);
      if (!tool) throw new JsonRpcError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
      return callTool(tool, context, args ?? {}, json);
    },
  };

  return {
    async handle(request, context) {
      const method = Object.hasOwn(methods, request.method) ? methods[request.method] : undefined;
      try {
        if (!method) throw new JsonRpcError(ErrorCode.MethodNotFound, `Method not found: ${request.method}`);
        return { message: { jsonrpc: '2.0', id: request.id, result: await method(request.params ?? {}, context) } };
      } catch (error) {
        if (error instanceof JsonRpcError) {
          const message: JsonRpcResponse = { jsonrpc: '2.0', id: request.id, error: { code: error.code, message: error.message } };
          return error.missingScope === undefined ? { message } : { message, missingScope: error.missingScope };
        }
        // A bug: logged in full, answered without implementation details.
        context.log.error({ err: error, method: request.method }, 'MCP request failed');
        return { message: { jsonrpc: '2.0', id: request.id, error: { code: ErrorCode.InternalError, message: 'Internal error' } } };
      }
    },
  };
}

/**
 * A tool call's params as clients send them, a `name` and an object of `arguments`, which the SDK's
 * schema would give back as they are: taken without running it (see plainRequest in routes.ts).
 * Anything else (`_meta`, `task`, a bad name) goes through the schema.
 */
function plainCallParams(params: unknown): { name: string; arguments?: Record<string, unknown> } | undefined {
  if (!hasOnlyKeys(params, ['name', 'arguments'])) return undefined;
  const { name, arguments: args } = params;
  if (typeof name !== 'string' || (args !== undefined && !isPlainObject(args))) return undefined;
  return { name, arguments: args };
}

function readParams<S extends z.ZodType>(schema: S, params: unknown): z.output<S> {
  const parsed = schema.safeParse(params);
  if (!parsed.success) {
    throw new JsonRpcError(ErrorCode.InvalidParams, `Invalid params: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || '(params)'}: ${issue.message}`).join('; ')}`);
  }
  return parsed.data;
}

/**
 * Access is checked before the arguments are read, and its refusal is a protocol error (the spec),
 * as the operation declares it; what the operation refuses is a tool result with `isError`, in the
 * REST error's words. A refusal for a scope the token lacks but could be given is marked, so the
 * transport answers 403 with a challenge naming it (decisions/0036): the operation checks the scope
 * before the role, so a refusal of a caller without the declared scope is that scope's.
 */
async function callTool(tool: Tool, ctx: Context, args: Record<string, unknown>, json: JsonWriter): Promise<CallToolResult> {
  const refused = (error: AppError) => new JsonRpcError(ErrorCode.InvalidRequest, error.message, missingScope(tool.operation.access, ctx.principal));
  try {
    return toolResult(json, await tool.call(ctx, args, { refused }));
  } catch (error) {
    // A database that does not answer is the tool's failure too (with when to try again), not a bug.
    const refusal = error instanceof AppError ? error : databaseUnavailable(error, ctx.log);
    if (!refusal) throw error;
    return { isError: true, content: [{ type: 'text', text: `${refusal.code}: ${refusal.message}` }] };
  }
}

/** The REST `data` as JSON text, and as structured content when it is an object (MCP requires one). */
function toolResult(json: JsonWriter, data: unknown): CallToolResult {
  const text = json.write(data ?? null);
  const result: CallToolResult = { content: [{ type: 'text', text }] };
  // The same JSON again, spliced into the response as it is rather than serialized a second time.
  if (data !== null && typeof data === 'object' && !Array.isArray(data)) result.structuredContent = new RawJson(text) as unknown as Record<string, unknown>;
  return result;
}
