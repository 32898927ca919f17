import type { Readable } from 'node:stream';
import { z } from 'zod';
import type { Context } from '../core/context.ts';
import { runOperation, type AnyOperation, type Operation } from '../core/operation.ts';
import type { ByteSource } from '../core/results.ts';
import type { Role, Scope } from '../core/roles.ts';
import type { Config } from '../config.ts';
import type { AppError } from '../core/errors.ts';
import type { BytesBody, MultipartBody } from './body.ts';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** A byte limit fixed in the declaration, or one that configuration sets (uploads: MEDIA_UPLOAD_LIMIT). */
export type BodyLimit = number | { fromConfig: (config: Config) => number; description: string };

/**
 * What a route reads as its body. A zod schema alone is a JSON body (the default); the others say their
 * kind. `limit` is in bytes; JSON and form bodies default to the app's `BODY_LIMIT`.
 */
export type BodySpec =
  | z.ZodType
  | { json: z.ZodType; limit?: number }
  | { form: z.ZodType; limit?: number }
  /** Parts named in `parts` are documented; the operation reads them as a stream (never buffered whole). */
  | { multipart: { limit: BodyLimit; parts: Record<string, 'file' | 'text'> } }
  /** The raw bytes of any type (a direct upload's PUT), read as a stream. */
  | { bytes: { limit: BodyLimit } }
  /**
   * Either of two forms, by Content-Type: JSON (within the app's `BODY_LIMIT`), or multipart read as a
   * stream (an upload, with its fields), up to `multipart.limit`.
   */
  | { jsonOrMultipart: { json: z.ZodType; multipart: { limit: BodyLimit; parts: Record<string, 'file' | 'text'> } } };

type SchemaOutput<S> = S extends z.ZodType ? z.output<S> : Record<never, never>;

export type BodyOutput<B> = B extends z.ZodType
  ? z.output<B>
  : B extends { json: infer S }
    ? SchemaOutput<S>
    : B extends { form: infer S }
      ? SchemaOutput<S>
      : B extends { multipart: unknown }
        ? MultipartBody
        : B extends { bytes: unknown }
          ? BytesBody
          : B extends { jsonOrMultipart: { json: infer S } }
            ? { form: 'json'; value: SchemaOutput<S> } | { form: 'multipart'; parts: MultipartBody }
            : Record<never, never>;

/** The parsed parts of a request, each by its declared schema. */
export interface RouteParts<P, Q, H, B> {
  params: SchemaOutput<P>;
  query: SchemaOutput<Q>;
  headers: SchemaOutput<H>;
  body: BodyOutput<B>;
}

/** The operation's input when a route gives no `input`: query, then body, then path (later ones win). */
type MergedParts<P, Q, B> = SchemaOutput<Q> & BodyOutput<B> & SchemaOutput<P>;

/**
 * How the operation's output goes on the wire. Without `result`, the output is the envelope's `data`
 * (with `response` its schema). Each kind maps the output to what it sends, so output types are checked.
 */
export type ResultSpec<O> =
  /** Bare JSON, no envelope (search, OAuth endpoints): the output as it is. */
  | { kind: 'json'; schema: z.ZodType; status?: 200 | 201; cacheControl?: string }
  /** A file: 200, 206 for `Range`, 304 for `If-None-Match`, with its own caching. */
  | { kind: 'bytes'; source: (output: O) => ByteSource; cacheControl: string; headers?: Record<string, string> }
  /**
   * A file made while it is sent (a site archive): its length is not known up front, so no ranges and
   * no validators; always `attachment`, never cached.
   */
  | { kind: 'download'; contentType: string; download: (output: O) => { filename: string; body: Readable } }
  /**
   * One JSON value per line as they come; a failure after the first line ends the stream with an error
   * line. With `whole`, a request may ask for the last line alone instead, answered in the envelope as
   * every endpoint is: `value` gives it, or undefined to stream.
   */
  | { kind: 'ndjson'; line: z.ZodType; lines: (output: O) => AsyncIterable<unknown>; whole?: { schema: z.ZodType; value: (output: O) => Promise<unknown> } }
  /** A server-rendered page. */
  | { kind: 'html'; render: (output: O) => string | Promise<string>; contentSecurityPolicy?: string | ((output: O) => string); cacheControl?: string }
  | { kind: 'redirect'; location: (output: O) => string; status?: 302 | 303 }
  /** A browser step that either shows a page or sends the browser on (OAuth's authorize and consent). */
  | { kind: 'page'; respond: (output: O) => PageResult | Promise<PageResult>; contentSecurityPolicy?: string };

/** What a `page` route answers: a page, or a redirect (303 after a form POST, 302 otherwise). */
export type PageResult = { html: string; status?: number; contentSecurityPolicy?: string } | { redirect: string; status?: 302 | 303 };

/**
 * How a route's failures go on the wire when not as the envelope: OAuth's endpoints answer with the
 * error objects of their RFCs, and its browser steps with a page or a redirect back to the client.
 */
export type FailureSpec = (error: AppError, request: { url: string; method: string }) => FailureResponse | Promise<FailureResponse>;

export type FailureResponse =
  | { kind: 'json'; status: number; body: unknown; headers?: Record<string, string> }
  | { kind: 'page'; result: PageResult };

/** Another representation of the envelope's data a request may ask for (e.g. `GET /schema` as TypeScript). */
export interface Alternative<O, Q> {
  type: string;
  wanted: (request: { query: SchemaOutput<Q>; accept: string }) => boolean;
  render: (output: O) => string;
}

interface RouteSpecBase<P, Q, H, B, I, O> {
  method: HttpMethod;
  /** Hono path relative to `/_cms/api`, e.g. `/admin/users/:id`. */
  path: string;
  summary: string;
  tag: string;
  operation: Operation<I, O>;
  params?: P;
  query?: Q;
  /** Request headers the operation needs, by lower-case name. */
  headers?: H;
  /** Endpoints without a body accept an empty one, or `{}`. */
  body?: B;
  /** The schema of `data` in the success envelope; with `result`, unused. */
  response?: z.ZodType;
  status?: 200 | 201;
  /** The status when it depends on the output (an upload of bytes already stored: 200, not 201). */
  statusOf?: (output: O) => 200 | 201;
  alternative?: Alternative<O, Q>;
  result?: ResultSpec<O>;
  /**
   * The envelope's `data` when it is not the output itself: an operation that starts a session returns
   * the session's token for `cookies`, which must never reach the body.
   */
  data?: (output: O) => unknown;
  /** `Set-Cookie` headers the response carries, whatever its kind (a session started or ended). */
  cookies?: (output: O, config: Config) => string[];
  /**
   * For an operation that may answer before its work is done (RFC 7240 `Prefer: respond-async`, or
   * work left to a retry): when `answer` gives one for the output, the response is 202 Accepted with the
   * envelope of `data` (whose schema is `schema`), `Location` the URL of the work's status, and
   * `Preference-Applied: respond-async` when the request asked for it. Otherwise the output goes out
   * as the route's result kind says.
   */
  accepted?: AcceptedSpec<O>;
  /** How failures are answered; default the error envelope. */
  failure?: FailureSpec;
}

export interface AcceptedSpec<O> {
  schema: z.ZodType;
  answer: (output: O) => { location: string; data: unknown } | undefined;
}

/**
 * A route maps its parsed parts to exactly the operation's input: with `input`, or without it when the
 * merged parts already are that input. The compiler refuses a route whose parts do not fit.
 */
type InputMapping<P, Q, H, B, I> =
  | { input: (parts: RouteParts<P, Q, H, B>) => I }
  | (MergedParts<P, Q, B> extends I ? { input?: undefined } : never);

export type RouteSpec<P, Q, H, B, I, O> = RouteSpecBase<P, Q, H, B, I, O> & InputMapping<P, Q, H, B, I>;

/** The declaration with its types erased, as the app, the 405 check and the OpenAPI document read it. */
export interface Route {
  method: HttpMethod;
  path: string;
  summary: string;
  tag: string;
  operation: AnyOperation;
  params?: z.ZodType;
  query?: z.ZodType;
  headers?: z.ZodType;
  body: BodyDeclaration;
  response?: z.ZodType;
  status: 200 | 201;
  statusOf?: (output: unknown) => 200 | 201;
  alternative?: { type: string; wanted(request: { query: unknown; accept: string }): boolean; render(output: unknown): string };
  result?: ResultSpec<unknown>;
  data?: (output: unknown) => unknown;
  cookies?: (output: unknown, config: Config) => string[];
  accepted?: AcceptedSpec<unknown>;
  failure?: FailureSpec;
  /** Runs the operation for `ctx` with the parts `readParts` parses (after access is checked); a promise where a body is read. */
  invoke(ctx: Context, readParts: () => RawParts | Promise<RawParts>): Promise<unknown>;
}

/** A request's parts as the route's schemas parsed them. */
export interface RawParts {
  params: unknown;
  query: unknown;
  headers: unknown;
  body: unknown;
}

export type BodyDeclaration =
  | { kind: 'none' }
  | { kind: 'json' | 'form'; schema: z.ZodType; limit?: number }
  | { kind: 'multipart'; limit: BodyLimit; parts: Record<string, 'file' | 'text'> }
  | { kind: 'bytes'; limit: BodyLimit }
  | { kind: 'jsonOrMultipart'; schema: z.ZodType; limit: BodyLimit; parts: Record<string, 'file' | 'text'> };

export function defineRoute<P = undefined, Q = undefined, H = undefined, B = undefined, I = unknown, O = unknown>(
  spec: RouteSpec<P, Q, H, B, I, O>,
): Route {
  // Without `input`, InputMapping made sure the merged parts are the operation's input.
  const toInput = spec.input ?? ((parts: RouteParts<P, Q, H, B>) => ({ ...(parts.query as object), ...(parts.body as object), ...(parts.params as object) }) as I);
  return {
    method: spec.method,
    path: spec.path,
    summary: spec.summary,
    tag: spec.tag,
    operation: spec.operation,
    params: spec.params as z.ZodType | undefined,
    query: spec.query as z.ZodType | undefined,
    headers: spec.headers as z.ZodType | undefined,
    body: bodyDeclaration(spec.method, spec.body as BodySpec | undefined),
    response: spec.response,
    status: spec.status ?? 200,
    statusOf: spec.statusOf as Route['statusOf'],
    // The erased functions only ever receive this route's own output (see `invoke`).
    alternative: spec.alternative as Route['alternative'],
    result: spec.result as ResultSpec<unknown> | undefined,
    data: spec.data as Route['data'],
    cookies: spec.cookies as Route['cookies'],
    accepted: spec.accepted as Route['accepted'],
    failure: spec.failure,
    invoke: (ctx, readParts) =>
      runOperation(spec.operation, ctx, () => {
        const parts = readParts();
        return parts instanceof Promise ? parts.then((read) => toInput(read as RouteParts<P, Q, H, B>)) : toInput(parts as RouteParts<P, Q, H, B>);
      }),
  };
}

/**
 * `input` for an operation that takes its path's parameters and the body as one value, `body` (an
 * update of a named thing: the name says which, the body what changes, and a body field may share a
 * parameter's name, as a rename's `name` does).
 */
export function paramsWithBody<P extends object, B>({ params, body }: { params: P; body: B }): P & { body: B } {
  return { ...params, body };
}

function bodyDeclaration(method: HttpMethod, body: BodySpec | undefined): BodyDeclaration {
  if (body === undefined) return method === 'get' ? { kind: 'none' } : { kind: 'json', schema: emptyBody };
  if (body instanceof z.ZodType) return { kind: 'json', schema: body };
  if ('multipart' in body) return { kind: 'multipart', ...body.multipart };
  if ('bytes' in body) return { kind: 'bytes', ...body.bytes };
  if ('jsonOrMultipart' in body) return { kind: 'jsonOrMultipart', schema: body.jsonOrMultipart.json, ...body.jsonOrMultipart.multipart };
  if ('form' in body) return { kind: 'form', schema: body.form, limit: body.limit };
  return { kind: 'json', schema: body.json, limit: body.limit };
}

/** Action endpoints take no body: an empty one, or `{}` (DECISIONS §1). */
const emptyBody = z.strictObject({});

/** The scope and role a route needs, for the OpenAPI document. */
export function routeRequirement(route: Route): { scope?: Scope; minRole?: Role; authenticated: boolean; publicWhen: boolean } {
  const rule = route.operation.access;
  if (rule.kind === 'public') return { authenticated: false, publicWhen: false };
  if (rule.kind === 'ownAccount') return { authenticated: true, publicWhen: false };
  return { authenticated: true, scope: rule.scope, minRole: rule.minRole, publicWhen: rule.publicWhen !== undefined };
}
