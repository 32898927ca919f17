import path from 'node:path';
import { z } from 'zod';

/**
 * How the text of a variable or flag becomes a value: each parser's message completes the sentence
 * `VARIABLE (--flag) …` that a ConfigError prints, so it reads the same whichever way the value came.
 */

export const integer = (min: number, max: number) =>
  z
    .string()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`));

export const httpUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
  .transform((value) => value.replace(/\/+$/, ''));

/** A comma-separated list, its items trimmed and empty ones dropped. */
export const list = z
  .string()
  .optional()
  .transform((value) => (value ?? '').split(',').map((item) => item.trim()).filter(Boolean));

// Browsers send `Origin` without a trailing slash, so each entry is stored in exactly that form.
export const origin = z
  .string()
  .refine((value) => {
    try {
      const url = new URL(value);
      return /^https?:$/.test(url.protocol) && url.origin === value.replace(/\/$/, '');
    } catch {
      return false;
    }
  }, 'must be a list of origins such as https://example.com (scheme, host and optional port, nothing else)')
  .transform((value) => new URL(value).origin);

const byteSizeUnits: Record<string, number> = { '': 1, b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };
export const byteSize = z
  .string()
  .regex(/^\d+\s*(b|kb|mb|gb)?$/i, 'must be a size such as 10485760 or 10mb')
  .transform((value) => {
    const [, amount, unit = ''] = /^(\d+)\s*([a-z]*)$/i.exec(value)!;
    return Number(amount) * byteSizeUnits[unit.toLowerCase()]!;
  })
  .pipe(z.number().min(1024, 'must be at least 1kb'));

export const mimePattern = z
  .string()
  .regex(/^[a-z0-9][a-z0-9!#$&^_.+-]*\/(?:\*|[a-z0-9][a-z0-9!#$&^_.+-]*)$/, 'must be a list of MIME types such as image/*,application/pdf');

export const booleanText = z.enum(['true', 'false', '1', '0'], 'must be true or false').transform((value) => value === 'true' || value === '1');

const durationUnitsMs = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
export const duration = z
  .string()
  .regex(/^\d{1,5}[mhd]$/, 'must be a duration such as 90m, 12h or 30d')
  .transform((value) => Number(value.slice(0, -1)) * durationUnitsMs[value.slice(-1) as keyof typeof durationUnitsMs])
  .pipe(z.number().min(60_000, 'must be at least 1m'));

/** `false`, `true` (one proxy) or how many proxies stand in front of Folio. */
export const proxyHops = z.string().transform((value, ctx) => {
  const hops = value === 'true' ? 1 : value === 'false' ? 0 : /^\d{1,2}$/.test(value) ? Number(value) : -1;
  if (hops < 0 || hops > 10) ctx.addIssue({ code: 'custom', message: 'must be false, true or the number of proxies in front of Folio (0-10)' });
  return hops;
});

export type DatabaseLocation = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string };

export const databaseLocation = z.string().transform((value, ctx) => {
  const location = parseDatabaseUrl(value);
  if (typeof location === 'string') ctx.addIssue({ code: 'custom', message: location });
  return location as DatabaseLocation;
});

/** The database a DATABASE_URL names, or what is wrong with it. */
function parseDatabaseUrl(value: string): DatabaseLocation | string {
  if (/^postgres(ql)?:\/\//.test(value)) {
    try {
      new URL(value);
    } catch {
      return 'is not a valid postgres:// URL';
    }
    return { kind: 'postgres', url: value };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value) && !value.startsWith('file:')) {
    return 'must be a postgres:// URL, a file: URL or a path to an SQLite file';
  }
  const filePath = value.replace(/^file:(\/\/)?/, '').replace(/^sqlite:/, '');
  if (filePath === '') return 'names no SQLite file';
  if (filePath === ':memory:') return { kind: 'sqlite', path: filePath };
  return { kind: 'sqlite', path: path.resolve(filePath) };
}
