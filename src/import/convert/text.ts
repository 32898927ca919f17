/**
 * Text runs gathered from HTML become Portable Text text blocks: whitespace treated the way a browser
 * shows it (or the way WordPress's wpautop reads classic posts), spans joined where their marks agree,
 * link annotations kept with their href exactly as written.
 */
import type { PortableTextObject, PortableTextSpan, PortableTextTextBlock } from '../../content/value-types.ts';
import type { Conversion } from './conversion.ts';

/** A link annotation; `href` is kept exactly, `target`, `rel` and `title` when the source has them. */
export interface LinkDef {
  _type: 'link';
  _key: string;
  href: string;
  [attribute: string]: string;
}

export interface Run {
  text: string;
  /** Decorators, then the key of the link around the run, if any. */
  marks: readonly string[];
  /** Inside `<pre>`: every space and newline kept. */
  pre?: boolean;
  /** A `<br>`, kept as a newline whatever the whitespace rules. */
  hard?: boolean;
}

export interface Shape {
  style: string;
  listItem?: 'bullet' | 'number';
  level?: number;
}

/**
 * How newlines in source text read: in block markup HTML whitespace collapses as in a browser; in a
 * classic post a blank line starts a paragraph and a single newline is a line break (wpautop).
 */
export type TextMode = 'html' | 'classic';

const spaces = /[ \t\n\r\f]+/g;

function normalize(run: Run, mode: TextMode): Run {
  if (run.pre || run.hard) return run;
  if (mode === 'html') return { ...run, text: run.text.replace(spaces, ' ') };
  const text = run.text
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t\f]*\n[ \t\f]*/g, '\n')
    .replace(/[ \t\f]+/g, ' ')
    .replace(/\n{3,}/g, '\n\n');
  return { ...run, text };
}

/** Splits a classic run at its blank lines: each piece but the first starts a new paragraph. */
function paragraphsOf(runs: readonly Run[], mode: TextMode): Run[][] {
  const paragraphs: Run[][] = [[]];
  let afterBreak = false;
  for (const run of runs) {
    const classic = mode === 'classic' && !run.pre && !run.hard;
    // wpautop turns a newline into a line break only where the source has no `<br>` already.
    const text = classic && afterBreak ? run.text.replace(/^\n(?!\n)/, '') : run.text;
    afterBreak = run.hard === true;
    const pieces = classic ? text.split('\n\n') : [text];
    pieces.forEach((text, index) => {
      if (index > 0) paragraphs.push([]);
      paragraphs.at(-1)?.push({ ...run, text });
    });
  }
  return paragraphs;
}

/** Drops the spaces a browser would not show: doubled across runs, and at the block's edges. */
function trimRuns(runs: readonly Run[]): Run[] {
  const out: Run[] = [];
  let previousEndsBlank = true;
  for (const run of runs) {
    let text = run.text;
    if (!run.pre && !run.hard && previousEndsBlank) text = text.replace(/^[ \n]+/, '');
    if (text === '') continue;
    out.push({ ...run, text });
    previousEndsBlank = !run.pre && /[ \n]$/.test(text);
  }
  while (out.length > 0) {
    const last = out.at(-1) as Run;
    if (last.pre) break;
    const text = last.text.replace(/[ \n]+$/, '');
    if (text !== '') {
      out[out.length - 1] = { ...last, text };
      break;
    }
    out.pop();
  }
  return out;
}

function mergeRuns(runs: readonly Run[]): Run[] {
  const merged: Run[] = [];
  for (const run of runs) {
    const last = merged.at(-1);
    if (last && last.marks.join('\u0000') === run.marks.join('\u0000')) merged[merged.length - 1] = { ...last, text: last.text + run.text };
    else merged.push(run);
  }
  return merged;
}

/**
 * The text blocks runs make (several in classic mode, where blank lines split paragraphs). Runs with
 * nothing visible make none; the link definitions a block's spans use go into its markDefs.
 */
export function textBlocks(conversion: Conversion, runs: readonly Run[], links: ReadonlyMap<string, LinkDef>, shape: Shape, mode: TextMode): PortableTextTextBlock[] {
  const blocks: PortableTextTextBlock[] = [];
  for (const paragraph of paragraphsOf(runs.map((run) => normalize(run, mode)), mode)) {
    const tidy = mergeRuns(trimRuns(paragraph));
    if (!tidy.some((run) => run.text.trim() !== '')) continue;
    const renamed = new Map<string, string>();
    const markDefs: PortableTextObject[] = [...new Set(tidy.flatMap((run) => run.marks))].flatMap((mark) => {
      const link = links.get(mark);
      if (!link || conversion.claimLinkKey(link._key)) return link ? [link] : [];
      const key = conversion.key();
      renamed.set(mark, key);
      return [{ ...link, _key: key }];
    });
    const children: PortableTextSpan[] = tidy.map((run) => ({ _type: 'span', _key: conversion.key(), text: run.text, marks: run.marks.map((mark) => renamed.get(mark) ?? mark) }));
    const list = shape.listItem ? { listItem: shape.listItem, level: shape.level ?? 1 } : {};
    blocks.push({ _type: 'block', _key: conversion.key(), style: shape.style, ...list, markDefs, children });
  }
  return blocks;
}
