import { z } from 'zod';
import { errorStatus } from '../core/errors.ts';
import { roleName } from '../core/roles.ts';
import { routeRequirement, type BodyLimit, type Route } from './route.ts';

type JsonSchema = Record<string, unknown>;

/**
 * Builds the OpenAPI 3.1 document from the route declarations and their zod schemas, so the document
 * cannot describe an input other than the one that is validated.
 */
export function buildOpenApiDocument(routes: readonly Route[], basePath: string, version: string): JsonSchema {
  const components: Record<string, JsonSchema> = { ErrorEnvelope: errorEnvelopeSchema() };
  const convert = (schema: z.ZodType, io: 'input' | 'output') => toOpenApiSchema(schema, io, components);
  const paths: Record<string, Record<string, unknown>> = {};

  for (const route of routes) {
    const path = basePath + route.path.replace(/:(\w+)(?:\{[^}]*\})?/g, '{$1}');
    const requirement = routeRequirement(route);
    const parameters = [
      ...objectParameters(route.params, 'path', convert),
      ...objectParameters(route.query, 'query', convert),
      ...objectParameters(route.headers, 'header', convert),
    ];
    const operation: Record<string, unknown> = {
      operationId: route.operation.name,
      summary: route.summary,
      tags: [route.tag],
      parameters,
      responses: { ...successResponses(route, convert), ...errorResponses(route, requirement.authenticated) },
      security: requirement.authenticated ? [{ bearerAuth: [] }, { sessionCookie: [] }, ...(requirement.publicWhen ? [{}] : [])] : [],
    };
    if (requirement.scope) operation['x-required-scope'] = requirement.scope;
    if (requirement.minRole) operation['x-minimum-role'] = `${requirement.minRole} (${roleName(requirement.minRole)})`;
    if (requirement.publicWhen) operation['x-public-when'] = 'the publicRead setting is on';
    const requestBody = requestBodyOf(route, convert);
    if (requestBody) operation.requestBody = requestBody;
    (paths[path] ??= {})[route.method] = operation;
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'Folio API',
      version,
      description: 'Content management REST API. Responses use the envelope `{success, data}` or `{success:false, error:{code, message, details}}`.',
    },
    servers: [{ url: '/' }],
    paths,
    components: {
      schemas: components,
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'A personal access token (ec_pat_…) or an OAuth access token' },
        sessionCookie: {
          type: 'apiKey',
          in: 'cookie',
          name: 'folio_session',
          description: 'A browser session from a passkey, a magic link, an invitation or setup (`__Host-folio_session` when PUBLIC_URL is https). A request other than GET, HEAD or OPTIONS carrying it needs an allowed Origin, or none.',
        },
      },
    },
  };
}

type Convert = (schema: z.ZodType, io: 'input' | 'output') => JsonSchema;

/** The request body as the route declares its kind. */
function requestBodyOf(route: Route, convert: Convert): Record<string, unknown> | undefined {
  const body = route.body;
  switch (body.kind) {
    case 'none':
      return undefined;
    case 'json':
      return { required: true, content: { 'application/json': { schema: convert(body.schema, 'input') } } };
    case 'form':
      return { required: true, content: { 'application/x-www-form-urlencoded': { schema: convert(body.schema, 'input') } } };
    case 'bytes':
      return { required: true, description: `The raw bytes, at most ${limitText(body.limit)}`, content: { '*/*': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } } };
    case 'multipart':
      return { required: true, description: `At most ${limitText(body.limit)} in all`, content: multipartContent(body.parts) };
    case 'jsonOrMultipart':
      return {
        required: true,
        description: `JSON, or multipart/form-data of at most ${limitText(body.limit)} in all`,
        content: { 'application/json': { schema: convert(body.schema, 'input') }, ...multipartContent(body.parts) },
      };
  }
}

function multipartContent(parts: Record<string, 'file' | 'text'>): Record<string, unknown> {
  const properties = Object.fromEntries(Object.entries(parts).map(([name, kind]) => [name, kind === 'file' ? { type: 'string', contentMediaType: 'application/octet-stream' } : { type: 'string' }]));
  return { 'multipart/form-data': { schema: { type: 'object', properties } } };
}

function limitText(limit: BodyLimit): string {
  return typeof limit === 'number' ? `${limit} bytes` : limit.description;
}

/** The success responses of the route's result kind. */
/** The success responses, each saying it sets the session cookie when the route does. */
function successResponses(route: Route, convert: Convert): Record<string, unknown> {
  const responses = { ...successResponsesByKind(route, convert), ...acceptedResponse(route, convert) };
  if (!route.cookies) return responses;
  const headers = { 'Set-Cookie': { description: 'The session cookie, set or cleared (HttpOnly, SameSite=Lax, Secure on https)', schema: { type: 'string' } } };
  return Object.fromEntries(Object.entries(responses).map(([status, response]) => [status, { ...(response as object), headers }]));
}

/** The 202 of a route that may answer before its work is done (route.ts `accepted`). */
function acceptedResponse(route: Route, convert: Convert): Record<string, unknown> {
  if (!route.accepted) return {};
  return {
    '202': {
      description: 'Accepted: the work goes on (the request said `Prefer: respond-async`, or what is left waits for a retry); Location is where its status is read',
      headers: {
        Location: { description: 'The URL of the status of the work', schema: { type: 'string' } },
        'Preference-Applied': { description: '`respond-async` when the request preferred it (RFC 7240)', schema: { type: 'string' } },
      },
      content: { 'application/json': { schema: successEnvelope(convert(route.accepted.schema, 'output')) } },
    },
  };
}

function successResponsesByKind(route: Route, convert: Convert): Record<string, unknown> {
  const result = route.result;
  if (!result) {
    const alternative = route.alternative ? { [route.alternative.type.split(';')[0]!]: { schema: { type: 'string' } } } : {};
    const content = { 'application/json': { schema: successEnvelope(convert(route.response ?? z.unknown(), 'output')) }, ...alternative };
    if (route.statusOf) return { '200': { description: 'Success: an existing item', content }, '201': { description: 'Created', content } };
    return { [String(route.status)]: { description: 'Success', content } };
  }
  switch (result.kind) {
    case 'json':
      return { [String(result.status ?? 200)]: { description: 'Success (bare JSON, no envelope)', content: { 'application/json': { schema: convert(result.schema, 'output') } } } };
    case 'bytes': {
      const bytes = { '*/*': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } };
      return {
        '200': { description: `The file (Cache-Control: ${result.cacheControl})`, content: bytes },
        '206': { description: 'The part of the file a Range header asked for', content: bytes },
        '302': { description: 'The file is served from elsewhere (a short-lived presigned URL in Location)' },
        '304': { description: 'Not modified: the If-None-Match validator still holds' },
        '416': { description: 'No part of the requested range is in the file' },
      };
    }
    case 'download':
      return {
        '200': {
          description: 'A file made while it is sent (Content-Disposition: attachment; no Content-Length, no ranges)',
          content: { [result.contentType]: { schema: { type: 'string', contentMediaType: result.contentType } } },
        },
      };
    case 'ndjson':
      return {
        '200': {
          description: 'Newline-delimited JSON, one value per line; a failure after the first line ends the stream with an error envelope line',
          content: {
            'application/x-ndjson': { schema: convert(result.line, 'output') },
            ...(result.whole ? { 'application/json': { schema: successEnvelope(convert(result.whole.schema, 'output')) } } : {}),
          },
        },
      };
    case 'html':
      return { '200': { description: 'An HTML page', content: { 'text/html': { schema: { type: 'string' } } } } };
    case 'redirect':
      return { [String(result.status ?? 302)]: { description: 'A redirect (Location header)', headers: { Location: { schema: { type: 'string' } } } } };
    case 'page':
      return {
        '200': { description: 'A page', content: { 'text/html': { schema: { type: 'string' } } } },
        '302': { description: 'A redirect (Location header)', headers: { Location: { schema: { type: 'string' } } } },
      };
  }
}

function toOpenApiSchema(schema: z.ZodType, io: 'input' | 'output', components: Record<string, JsonSchema>): JsonSchema {
  const { $schema: _ignored, $defs, ...json } = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' }) as JsonSchema;
  for (const [id, definition] of Object.entries(($defs as Record<string, JsonSchema> | undefined) ?? {})) {
    components[id] = rewriteRefs(definition) as JsonSchema;
  }
  return rewriteRefs(json) as JsonSchema;
}

/** zod names shared schemas in `$defs`; in an OpenAPI document they live under components. */
function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) =>
      key === '$ref' && typeof item === 'string' ? [key, item.replace('#/$defs/', '#/components/schemas/')] : [key, rewriteRefs(item)],
    ),
  );
}

function objectParameters(
  schema: z.ZodType | undefined,
  location: 'path' | 'query' | 'header',
  convert: Convert,
) {
  if (!schema) return [];
  const json = convert(schema, 'input');
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...propertySchema } = property;
    return { name, in: location, required: location === 'path' || required.has(name), description, schema: propertySchema };
  });
}

function successEnvelope(data: JsonSchema): JsonSchema {
  return {
    type: 'object',
    properties: { success: { const: true }, data },
    required: ['success', 'data'],
  };
}

function errorEnvelopeSchema(): JsonSchema {
  return {
    type: 'object',
    properties: {
      success: { const: false },
      error: {
        type: 'object',
        properties: {
          code: { type: 'string', enum: Object.keys(errorStatus) },
          message: { type: 'string' },
          details: { type: 'object', description: 'Always an object; `issues: [{path, message}]` on validation errors' },
        },
        required: ['code', 'message', 'details'],
      },
    },
    required: ['success', 'error'],
  };
}

const unsupportedBody = {
  json: 'Body is not JSON (UNSUPPORTED_MEDIA_TYPE)',
  form: 'Body is not a form (UNSUPPORTED_MEDIA_TYPE)',
  multipart: 'Body is not multipart/form-data (UNSUPPORTED_MEDIA_TYPE)',
  bytes: 'The bytes are of a type not allowed here (UNSUPPORTED_MEDIA_TYPE)',
  jsonOrMultipart: 'Body is neither JSON nor multipart/form-data (UNSUPPORTED_MEDIA_TYPE)',
};

/** The error object of the OAuth RFCs, which routes with their own `failure` answer with. */
const oauthErrorSchema = {
  type: 'object',
  properties: { error: { type: 'string', description: 'RFC 6749 §5.2, RFC 7591 §3.2.2, RFC 7009 §2.2.1 or RFC 8628 §3.5 error code' }, error_description: { type: 'string' } },
  required: ['error'],
};

function errorResponses(route: Route, authenticated: boolean): Record<string, unknown> {
  if (route.failure) {
    const oauthError = (description: string) => ({ description, content: { 'application/json': { schema: oauthErrorSchema } } });
    return {
      '400': oauthError('The request is refused (invalid_request, invalid_grant, invalid_client_metadata…)'),
      '401': oauthError('Unknown client (invalid_client)'),
      '429': oauthError('Too many requests; Retry-After says when to try again'),
      '500': oauthError('Unexpected failure (server_error)'),
    };
  }
  const error = (description: string) => ({
    description,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
  });
  const responses: Record<string, unknown> = { '400': error('Invalid input (VALIDATION_ERROR with details.issues)') };
  if (authenticated) {
    responses['401'] = error('Missing or invalid credential (UNAUTHORIZED)');
    responses['403'] = error('Missing scope or role (FORBIDDEN with details.requiredScope or details.requiredRole)');
  }
  if (route.params) responses['404'] = error('Not found (NOT_FOUND)');
  if (route.body.kind !== 'none') {
    responses['413'] = error('Body over the limit (PAYLOAD_TOO_LARGE)');
    responses['415'] = error(unsupportedBody[route.body.kind]);
  }
  if (route.body.kind === 'json' || route.body.kind === 'form' || route.body.kind === 'jsonOrMultipart') responses['503'] = error('Too many large bodies being read at once; Retry-After says when to try again');
  responses['500'] = error('Unexpected failure (INTERNAL_ERROR, with details.requestId)');
  return responses;
}
