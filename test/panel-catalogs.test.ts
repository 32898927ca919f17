import { compileMessage } from '@lingui/message-utils/compileMessage';
import { describe, expect, it } from 'vitest';
import { de } from '../admin/src/i18n/de.ts';
import { en } from '../admin/src/i18n/en.ts';

type Compiled = ReturnType<typeof compileMessage>;

/**
 * What a message's code relies on: each argument with its format, and each branch of a plural or
 * select, as `name`, `name:number`, `name:plural=one`. A translation must have the same, or the
 * screen passes values it does not show, or it shows `{count}` where a number belongs.
 */
function argumentsOf(message: Compiled, into = new Set<string>()): Set<string> {
  if (!Array.isArray(message)) return into;
  for (const part of message) {
    if (typeof part === 'string') continue;
    const [name, format, branches] = part as [string, string?, Record<string, Compiled>?];
    into.add(format ? `${name}:${format}` : name);
    for (const [key, branch] of Object.entries(branches ?? {})) {
      into.add(`${name}:${format}=${key}`);
      argumentsOf(branch, into);
    }
  }
  return into;
}

/**
 * The panel's catalogs (admin/src/i18n): every message is ICU MessageFormat that compiles, and the
 * German one has every English message with the same arguments and branches (the type checker has
 * already made sure it has the same ids).
 */
describe('the panel’s message catalogs', () => {
  it('compile, and German has the arguments and branches of English in every message', () => {
    const mismatched: string[] = [];
    for (const [id, english] of Object.entries(en)) {
      const german = de[id as keyof typeof en] ?? '';
      const expected = [...argumentsOf(compileMessage(english))].sort();
      const actual = [...argumentsOf(compileMessage(german))].sort();
      if (expected.join() !== actual.join()) mismatched.push(`${id}: ${actual.join(' ')} (English: ${expected.join(' ')})`);
    }
    expect(mismatched).toEqual([]);
    expect(Object.keys(de).sort()).toEqual(Object.keys(en).sort());
  });

  it('reads a quoted brace as text, not as an argument', () => {
    expect(compileMessage(en['schema.collection.urlPattern.hint'])).toEqual([expect.stringContaining('/blog/{slug};')]);
  });
});
