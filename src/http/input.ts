import type { Context as HonoContext } from 'hono';
import { AppError, validationError } from '../core/errors.ts';

const jsonType = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/**
 * Reads a JSON body. An empty body counts as `{}` (action endpoints take none, DECISIONS §1); a
 * non-empty body must be declared as JSON (415) and parse (400). Size is enforced by the body limit.
 */
export async function readJsonBody(c: HonoContext): Promise<unknown> {
  const text = await c.req.text();
  if (text.length === 0) return {};
  const contentType = c.req.header('content-type') ?? '';
  if (!jsonType.test(contentType)) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Request bodies must be JSON with Content-Type: application/json', {
      contentType: contentType || null,
    });
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw validationError([{ path: '', message: `Malformed JSON: ${(error as Error).message}` }], 'Request body is not valid JSON');
  }
}
