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
  const problem = structureProblem(value);
  if (problem !== undefined) throw validationError([problem]);
  const result = schema.safeParse(value);
  if (!result.success) {
    const issues = toIssues(result.error.issues);
    throw validationError(issues, `Invalid ${what}: ${issues.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message)).join('; ')}`);
  }
  return result.data;
}

/** Deeper than any real document; deeper input would only exhaust the stack of whatever walks it. */
const maxDepth = 200;

/**
 * What no input may hold, found without recursion: text that is not well-formed, in a string or key
 * (see `textProblem`), a `__proto__` key, or nesting deeper than `maxDepth`.
 */
function structureProblem(value: unknown): ValidationIssue | undefined {
  const pending: { value: unknown; path: string[] }[] = [{ value, path: [] }];
  while (pending.length > 0) {
    const { value: current, path } = pending.pop()!;
    if (typeof current === 'string') {
      const problem = textProblem(current);
      if (problem !== undefined) return { path: path.join('.'), message: problem };
      continue;
    }
    if (current === null || typeof current !== 'object') continue;
    if (path.length >= maxDepth) return { path: path.slice(0, 3).join('.'), message: `Must not nest deeper than ${maxDepth} levels` };
    for (const [key, item] of Object.entries(current)) {
      const problem = textProblem(key);
      if (problem !== undefined) return { path: [...path, key].join('.'), message: problem };
      // Parsed JSON may hold it as a plain key, but any object it is copied into would take it as a prototype.
      if (key === '__proto__') return { path: [...path, key].join('.'), message: 'Unknown key' };
      pending.push({ value: item, path: [...path, key] });
    }
  }
  return undefined;
}

/**
 * The NUL character: PostgreSQL text cannot hold it, and refusing it everywhere keeps both engines
 * alike. A lone surrogate (JSON's `"\ud800"`): UTF-8 cannot encode it, so on the way to the database
 * it would silently become U+FFFD.
 */
function textProblem(text: string): string | undefined {
  if (text.includes('\0')) return 'Must not contain the NUL character';
  if (!text.isWellFormed()) return 'Must be well-formed Unicode (a lone surrogate such as \\ud800 is not)';
  return undefined;
}
