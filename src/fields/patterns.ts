import { LRUCache } from 'lru-cache';
import { RE2JS } from 're2js';

/**
 * Field `validation.pattern`s (decisions/0010). Every saved value runs its field's pattern on the
 * server, and the value is chosen by whoever writes the entry, so a backtracking engine (JavaScript's
 * RegExp) lets a Contributor stall the event loop with the right text (`^(a|a0)+$` against
 * `aaa…!`). RE2JS matches in time linear in the text, and refuses what needs backtracking (lookaround,
 * backreferences) when the pattern is compiled, which happens when a field is defined.
 *
 * Semantics: RE2 syntax as written, with no translation from JavaScript's, since a translation would
 * silently change what some patterns mean (`\k<name>`); no flags and no anchors added, so `^…$` is
 * written when the whole value must match, and inline flags (`(?i)`) turn on what the author wants.
 */

/**
 * Linear time is the text's length times the compiled program's size: at 500 steps the worst pattern
 * found takes about 300 ms over the longest text a pattern checks, which bounds the cost of one check.
 * `{m,n}` repeats count in full (`.{0,250}` is 500 steps); lengths belong in minLength/maxLength.
 */
export const patternMaxSteps = 500;

/** Longest text a pattern is checked against, so that the steps above bound the time of one check. */
export const patternValueMaxLength = 10_000;

/** A pattern ready to test text, or why the engine refuses it (a message for `validation.pattern`). */
export type CompiledPattern = { ok: true; test(text: string): boolean } | { ok: false; problem: string };

/**
 * Compiled once per pattern text, since values are checked on every write. Bounded because each
 * compiled pattern keeps its own lazily built automaton (up to a few megabytes); a deployment's
 * distinct patterns are far fewer.
 */
const compiled = new LRUCache<string, CompiledPattern>({ max: 100, memoMethod: compile });

export function compilePattern(pattern: string): CompiledPattern {
  return compiled.memo(pattern);
}

function compile(pattern: string): CompiledPattern {
  let regexp: RE2JS;
  try {
    regexp = RE2JS.compile(pattern);
  } catch (error) {
    // Whatever the parser throws on an author's text means it cannot run it.
    const reason = (error as Error).message.replace(/^error parsing regexp: /, '');
    return { ok: false, problem: `Is not supported: ${reason} (patterns use RE2 syntax: no lookahead, lookbehind or backreferences)` };
  }
  const steps = regexp.programSize();
  if (steps > patternMaxSteps) {
    return { ok: false, problem: `Is too complex: ${steps} steps, at most ${patternMaxSteps} (large {m,n} repeats count in full; use minLength and maxLength for lengths)` };
  }
  return { ok: true, test: (text) => regexp.test(text) };
}
