import type { z } from 'zod';
import { validationError, type ValidationIssue } from './errors.ts';

/** Zod issues as `details.issues`, with dotted paths a client can point at a form field. */
export function toIssues(zodIssues: readonly z.core.$ZodIssue[]): ValidationIssue[] {
  return zodIssues.flatMap((issue) => {
    const path = issue.path.map(String);
    // One issue per unknown key, at the key itself, so the typo is the thing named.
    if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => ({ path: [...path, key].join('.'), message: 'Unknown key' }));
    return [{ path: path.join('.'), message: issue.message }];
  });
}

/** Validates input with its shared schema; failure is a VALIDATION_ERROR naming each issue. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const nulPath = findNul(value, []);
  // PostgreSQL text cannot hold NUL; refusing it for every input keeps both engines alike.
  if (nulPath !== undefined) throw validationError([{ path: nulPath, message: 'Must not contain the NUL character' }]);
  const result = schema.safeParse(value);
  if (!result.success) {
    const issues = toIssues(result.error.issues);
    throw validationError(issues, `Invalid ${what}: ${issues.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message)).join('; ')}`);
  }
  return result.data;
}

/** The path of the first string (or key) holding a NUL character, if any. */
function findNul(value: unknown, path: string[]): string | undefined {
  if (typeof value === 'string') return value.includes('\0') ? path.join('.') : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\0')) return [...path, key].join('.');
    const found = findNul(item, [...path, key]);
    if (found !== undefined) return found;
  }
  return undefined;
}
