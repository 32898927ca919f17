import { z } from 'zod/mini';
import { mediaTypes } from '../../media/library/types';

/** The media screen's view in its URL (search text, type), falling back to none on a value that does not parse. */
export const MediaSearch = z.object({
  q: z.catch(z.optional(z.string().check(z.minLength(1), z.maxLength(200))), undefined),
  type: z.catch(z.optional(z.enum(mediaTypes)), undefined),
});
