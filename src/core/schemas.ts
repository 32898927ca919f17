import { z } from 'zod';

/** `{success: true}`: what every DELETE answers (the spec's `data.success`). */
export const DeletedResponse = z.object({ success: z.literal(true) });

/** A boolean in a query string: `true`/`false` or `1`/`0`; anything else is a 400. */
export const BooleanQuery = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');
