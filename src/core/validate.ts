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
  const result = schema.safeParse(value);
  if (!result.success) {
    const issues = toIssues(result.error.issues);
    throw validationError(issues, `Invalid ${what}: ${issues.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message)).join('; ')}`);
  }
  return result.data;
}
