import type { IncomingMessage } from 'node:http';
import type { Config } from '../config.ts';
import type { Context as HonoContext, Hono } from 'hono';
import { validationError } from '../core/errors.ts';
import { parseInput } from '../core/validate.ts';
import { declaredLength, isMultipart, readBytesBody, readFormBody, readJsonBody, readMultipartBody, tooLarge, type BodyMemoryBudget } from './body.ts';
import { success, textResponse } from './envelope.ts';
import { preferences, respondAsync } from './prefer.ts';
import { requestHeader } from './request-headers.ts';
import { answerAbortedRequest } from './aborted.ts';
import { asAppError, respondWith, respondWithFailure } from './results.ts';
import type { InRequestContext } from './request-context.ts';
import type { BodyDeclaration, Route } from './route.ts';
import type { AppEnv } from './types.ts';

export interface MountOptions {
  basePath: string;
  /** The default limit of JSON and form bodies (`BODY_LIMIT`). */
  bodyLimit: number;
  budget: BodyMemoryBudget;
  /** What limits set by configuration are read from. */
  config: Config;
  /** The request's context around the route's handler (request-context.ts). */
  inRequest: InRequestContext;
}

/** The byte limit of a route's body, or undefined when it takes none. */
export function bodyLimitOf(body: BodyDeclaration, defaultLimit: number, config: Config): number | undefined {
  if (body.kind === 'none') return undefined;
  const limit = body.limit ?? defaultLimit;
  return typeof limit === 'number' ? limit : limit.fromConfig(config);
}

/**
 * Serves a declared route: a body declared too large is refused before anything else, then access is
 * checked (runOperation), then the parts are parsed with the route's schemas, the operation runs, and
 * its output goes out as the route's result kind says.
 */
export function mountRoute(app: Hono<AppEnv>, route: Route, options: MountOptions): void {
  const limit = bodyLimitOf(route.body, options.bodyLimit, options.config);
  const handle = async (c: HonoContext<AppEnv>): Promise<Response> => {
    if (limit !== undefined && (declaredLength(c) ?? 0) > limit) throw tooLarge(limit);
    const ctx = await c.get('resolveContext')(route.operation.access.kind !== 'public');
    let query: unknown = {};
    const output = await route.invoke(ctx, () => {
      const params = route.params ? parseInput(route.params, c.req.param(), 'path') : {};
      query = route.query ? parseInput(route.query, readQuery(c), 'query') : {};
      const headers = route.headers ? parseInput(route.headers, requestHeaders(c), 'headers') : {};
      // A route without a body (most reads) parses its parts without a promise.
      if (route.body.kind === 'none') return { params, query, headers, body: {} };
      return readBody(c, route.body, limit ?? 0, options).then((body) => ({ params, query, headers, body }));
    });
    const response = await respond(c, route, output, query);
    for (const cookie of route.cookies?.(output, options.config) ?? []) response.headers.append('set-cookie', cookie);
    return response;
  };
  const failure = route.failure;
  app.on(
    route.method.toUpperCase(),
    options.basePath + route.path,
    options.inRequest(
      failure === undefined
        ? handle
        : async (c: HonoContext<AppEnv>) => {
            try {
              return await handle(c);
            } catch (error) {
              const aborted = answerAbortedRequest(c, error);
              if (aborted) return aborted;
              return respondWithFailure(c, await failure(asAppError(c, error), { url: c.req.url, method: c.req.method }));
            }
          },
    ),
  );
}

async function respond(c: HonoContext<AppEnv>, route: Route, output: unknown, query: unknown): Promise<Response> {
  const accepted = route.accepted?.answer(output);
  if (accepted) {
    const response = success(c, accepted.data, 202);
    response.headers.set('location', accepted.location);
    if (preferences(requestHeader(c, 'prefer')).has(respondAsync)) response.headers.set('preference-applied', respondAsync);
    return response;
  }
  if (route.result) return respondWith(c, route.result, output);
  const alternative = route.alternative;
  if (alternative?.wanted({ query, accept: requestHeader(c, 'accept') ?? '' })) return textResponse(c, alternative.render(output), alternative.type);
  return success(c, route.data ? route.data(output) : output, route.statusOf ? route.statusOf(output) : route.status);
}

async function readBody(c: HonoContext, body: BodyDeclaration, limit: number, { budget, bodyLimit }: MountOptions): Promise<unknown> {
  switch (body.kind) {
    case 'none':
      return {};
    case 'json':
      return parseInput(body.schema, await readJsonBody(c, limit, budget), 'body');
    case 'form':
      return parseInput(body.schema, await readFormBody(c, limit, budget), 'body');
    case 'multipart':
      return readMultipartBody(c, limit);
    case 'bytes':
      return readBytesBody(c, limit);
    case 'jsonOrMultipart':
      // The JSON form is buffered, so it keeps to the app's JSON limit whatever the upload's.
      if (isMultipart(c)) return { form: 'multipart', parts: readMultipartBody(c, limit) };
      if ((declaredLength(c) ?? 0) > bodyLimit) throw tooLarge(bodyLimit);
      return { form: 'json', value: parseInput(body.schema, await readJsonBody(c, bodyLimit, budget), 'body') };
  }
}

/**
 * The query string, each name once. A name given twice is ambiguous (two OAuth `resource`s, two
 * `limit`s): refused naming it, as form bodies are (body.ts), never read as its first value.
 */
function readQuery(c: HonoContext): Record<string, string> {
  const url = c.req.url;
  const start = url.indexOf('?');
  const query: Record<string, string> = {};
  if (start === -1) return query;
  for (const [name, value] of new URLSearchParams(url.slice(start + 1))) {
    if (Object.hasOwn(query, name)) throw validationError([{ path: name, message: 'Must be given once' }]);
    query[name] = value;
  }
  return query;
}

function requestHeaders(c: HonoContext): Record<string, string | string[] | undefined> {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return incoming ? incoming.headers : c.req.header();
}
