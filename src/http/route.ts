import type { Context as HonoContext, Hono } from 'hono';
import { z } from 'zod';
import type { Scope } from '../core/roles.ts';
import { runOperation, type Operation } from '../core/operation.ts';
import { success } from './envelope.ts';
import { parseInput } from '../core/validate.ts';
import { readJsonBody } from './input.ts';
import type { AppEnv } from './types.ts';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/**
 * A REST endpoint, declared once: Hono serves it, the 405 check and the OpenAPI document read it. The
 * handler only parses with the shared schemas, calls the operation and wraps the result.
 */
export interface RouteSpec<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, I, O> {
  method: HttpMethod;
  /** Hono path relative to `/_cms/api`, e.g. `/admin/users/:id`. */
  path: string;
  summary: string;
  tag: string;
  operation: Operation<I, O>;
  params?: P;
  query?: Q;
  /** Endpoints without a body accept an empty one, or `{}`. */
  body?: B;
  /** Combines the parsed parts into the operation's input; default: query, then body, then path. */
  input?: (parts: { params: z.output<P>; query: z.output<Q>; body: z.output<B> }) => I;
  /** The schema of `data` in the success envelope. */
  response: z.ZodType;
  status?: 200 | 201;
  /** Another representation the request may ask for (e.g. by `Accept`); undefined keeps the envelope. */
  render?: (c: HonoContext<AppEnv>, data: O, parts: { query: z.output<Q> }) => Response | undefined;
  /** The media types `render` may answer with, for the OpenAPI document (their bodies are text). */
  renderTypes?: string[];
}

export type AnyRoute = RouteSpec<z.ZodType, z.ZodType, z.ZodType, unknown, unknown>;

const emptyBody = z.strictObject({});

export function defineRoute<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, I, O>(
  spec: RouteSpec<P, Q, B, I, O>,
): AnyRoute {
  return spec as unknown as AnyRoute;
}

export function mountRoute(app: Hono<AppEnv>, basePath: string, spec: AnyRoute): void {
  const status = spec.status ?? 200;
  app.on(spec.method.toUpperCase(), basePath + spec.path, async (c: HonoContext<AppEnv>) => {
    const ctx = await c.get('resolveContext')(spec.operation.access.kind !== 'public');
    let query: unknown = {};
    const data = await runOperation(spec.operation, ctx, async () => {
      const params = spec.params ? parseInput(spec.params, c.req.param(), 'path') : {};
      query = spec.query ? parseInput(spec.query, c.req.query(), 'query') : {};
      const rawBody = spec.method === 'get' ? {} : await readJsonBody(c);
      const body = parseInput(spec.body ?? emptyBody, rawBody, 'body');
      const parts = { params, query, body };
      return spec.input ? spec.input(parts) : { ...(query as object), ...(body as object), ...(params as object) };
    });
    return spec.render?.(c, data, { query }) ?? success(c, data, status);
  });
}

/** The scope and role a route needs, for the OpenAPI document. */
export function routeRequirement(spec: AnyRoute): { scope?: Scope; minRole?: number; authenticated: boolean } {
  const rule = spec.operation.access;
  if (rule.kind === 'public') return { authenticated: false };
  if (rule.kind === 'authenticated') return { authenticated: true };
  return { authenticated: true, scope: rule.scope, minRole: rule.minRole };
}
