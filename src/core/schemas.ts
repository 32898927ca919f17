import { z } from 'zod';
import { isUrlSafeSlug } from './slugs.ts';

/** `{success: true}`: what every DELETE answers (the spec's `data.success`). */
export const DeletedResponse = z.object({ success: z.literal(true) });

/** A boolean in a query string: `true`/`false` or `1`/`0`; anything else is a 400. */
export const BooleanQuery = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');

/**
 * The name of a taxonomy, menu or widget area as sites and themes refer to it (`category`, `post_tag`,
 * `footer-1`): a lower-case letter, then lower-case letters, digits, `_` and `-`.
 */
export function machineName(description: string) {
  return z
    .string()
    .min(1)
    .max(63)
    .regex(/^[a-z][a-z0-9_-]*$/, 'Must be a lower-case letter, then lower-case letters, digits, "_" or "-"')
    .describe(description);
}

/** A name or slug in a path: any text, so an unknown one is a 404 rather than a pattern error. */
export function nameParam(description: string) {
  return z.string().min(1).max(200).describe(description);
}

/** A display label. */
export const Label = z.string().trim().min(1).max(200);

/** A URL-safe slug (terms, sections), unique where `description` says. */
export function urlSafeSlug(description: string) {
  return z
    .string()
    .min(1)
    .max(200)
    .refine(isUrlSafeSlug, 'Must be URL-safe: lower-case letters, digits and "_", in words joined by single "-"')
    .describe(description);
}
