/**
 * Rich text of `portableText` fields (DECISIONS §3): stored as Portable Text, also accepted as a Markdown
 * string, which is converted here. Keys are derived from content and position, never random, so the
 * same Markdown always gives the same document and re-saving unchanged text changes nothing.
 */
import { hash } from 'node:crypto';
import { getDefaults, Lexer, type MarkedToken, type Token, type Tokens } from 'marked';
import { LimitedTokenizer, markdownProblem, MarkdownLimitError, tooDeep } from './markdown-limits.ts';
import type { ValidationIssue } from '../core/errors.ts';

import type { PortableTextBlock, PortableTextObject, PortableTextTextBlock } from './value-types.ts';

export type NormalizedPortableText = { ok: true; blocks: PortableTextBlock[] } | { ok: false; issues: ValidationIssue[] };

export function isTextBlock(block: PortableTextBlock): block is PortableTextTextBlock {
  return block._type === 'block';
}

/** Hands out 12-character hex keys from seeds, never the same key twice within one document. */
class KeyMaker {
  readonly #used = new Set<string>();

  reserve(key: unknown): void {
    if (typeof key === 'string') this.#used.add(key);
  }

  make(seed: string): string {
    for (let attempt = 0; ; attempt++) {
      const key = hash('sha256', attempt === 0 ? seed : `${seed}#${attempt}`, 'hex').slice(0, 12);
      if (!this.#used.has(key)) {
        this.#used.add(key);
        return key;
      }
    }
  }
}

interface BlockShape {
  style: string;
  listItem?: 'bullet' | 'number';
  level?: number;
}

/** A stretch of text with the same formatting; Markdown links never nest, so one href at most. */
interface Run {
  text: string;
  decorators: string[];
  href?: string;
}

// Markdown's own named references; marked decodes numeric ones and leaves these to its HTML renderer.
const namedEntities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|apos|nbsp);/g, (entity, name: string) => namedEntities[name] ?? entity);
}

function inlinePlainText(tokens: readonly Token[]): string {
  return (tokens as readonly Tokens.Generic[])
    .map((token) => (token.tokens ? inlinePlainText(token.tokens) : typeof token.text === 'string' ? decodeEntities(token.text) : ''))
    .join('');
}

/** Joins runs formatted alike and trims the block's outer whitespace, which splitting around images leaves. */
function tidyRuns(runs: readonly Run[]): Run[] {
  const merged: Run[] = [];
  for (const run of runs) {
    const last = merged.at(-1);
    if (last && last.href === run.href && last.decorators.join() === run.decorators.join()) last.text += run.text;
    else merged.push({ ...run });
  }
  const first = merged[0];
  const last = merged.at(-1);
  if (first && !first.decorators.includes('code')) first.text = first.text.trimStart();
  if (last && !last.decorators.includes('code')) last.text = last.text.trimEnd();
  return merged.filter((run) => run.text !== '');
}

class MarkdownConverter {
  readonly blocks: PortableTextBlock[] = [];
  readonly #keys = new KeyMaker();
  /** `[x] ` or `[ ] ` of a task list item, put in front of the item's first text block. */
  #taskMarker = '';

  convertBlocks(tokens: readonly Token[], shape: BlockShape): void {
    for (const token of tokens as readonly MarkedToken[]) {
      switch (token.type) {
        case 'heading':
          this.#textBlock(token.tokens, { ...shape, style: `h${token.depth}` });
          break;
        case 'paragraph':
          this.#textBlock(token.tokens, shape);
          break;
        case 'text':
          this.#textBlock(token.tokens ?? [token], shape);
          break;
        case 'html':
          this.#textBlock([token], shape);
          break;
        case 'blockquote':
          this.convertBlocks(token.tokens, { ...shape, style: 'blockquote' });
          break;
        case 'list':
          for (const item of token.items) this.#listItem(item, token.ordered, shape);
          break;
        case 'table':
          for (const row of [token.header, ...token.rows]) this.#textBlock(tableRowTokens(row), shape);
          break;
        case 'code':
          this.#codeBlock(token);
          break;
        case 'hr':
          this.#push({ _type: 'break' }, (key) => ({ _key: key, _type: 'break' }));
          break;
        default:
          // space, def (reference links are already resolved) and checkbox (see #listItem) carry no content.
          break;
      }
    }
  }

  #listItem(item: Tokens.ListItem, ordered: boolean, shape: BlockShape): void {
    this.#taskMarker = item.task ? (item.checked ? '[x] ' : '[ ] ') : '';
    this.convertBlocks(item.tokens, { ...shape, listItem: ordered ? 'number' : 'bullet', level: (shape.level ?? 0) + 1 });
    this.#taskMarker = '';
  }

  #codeBlock(token: Tokens.Code): void {
    // The info string may carry more than the language (```ts title=x); the language is its first word.
    const language = token.lang?.trim().split(/\s+/)[0] ?? '';
    const block = { _type: 'code' as const, code: token.text, ...(language ? { language } : {}) };
    this.#push(block, (key) => ({ _key: key, ...block }));
  }

  /** Inline tokens become one text block, or several when images (blocks in Portable Text) split it. */
  #textBlock(tokens: readonly Token[], shape: BlockShape): void {
    let runs: Run[] = this.#taskMarker ? [{ text: this.#taskMarker, decorators: [] }] : [];
    this.#taskMarker = '';
    const flush = (): void => {
      const tidy = tidyRuns(runs);
      if (tidy.some((run) => run.text.trim() !== '')) this.#pushTextBlock(tidy, shape);
      runs = [];
    };
    const add = (text: string, decorators: string[], href: string | undefined): void => {
      runs.push({ text, decorators, ...(href === undefined ? {} : { href }) });
    };
    const decorate = (decorators: string[], name: string): string[] => (decorators.includes(name) ? decorators : [...decorators, name]);
    const walk = (inline: readonly Token[], decorators: string[], href: string | undefined): void => {
      for (const token of inline as readonly MarkedToken[]) {
        switch (token.type) {
          case 'text':
            if (token.tokens) walk(token.tokens, decorators, href);
            else add(decodeEntities(token.text), decorators, href);
            break;
          case 'escape':
            add(token.text, decorators, href);
            break;
          case 'html':
            add(token.text.trimEnd(), decorators, href);
            break;
          case 'br':
            add('\n', decorators, href);
            break;
          case 'codespan':
            add(token.text, decorate(decorators, 'code'), href);
            break;
          case 'strong':
            walk(token.tokens, decorate(decorators, 'strong'), href);
            break;
          case 'em':
            walk(token.tokens, decorate(decorators, 'em'), href);
            break;
          case 'del':
            walk(token.tokens, decorate(decorators, 'strike-through'), href);
            break;
          case 'link':
            walk(token.tokens, decorators, token.href);
            break;
          case 'image':
            flush();
            this.#imageBlock(token);
            break;
          default:
            break;
        }
      }
    };
    walk(tokens, [], undefined);
    flush();
  }

  #pushTextBlock(runs: readonly Run[], shape: BlockShape): void {
    const list = shape.listItem ? { listItem: shape.listItem, level: shape.level ?? 1 } : {};
    this.#push({ _type: 'block', shape, runs }, (key) => {
      const linkKeys = new Map<string, string>();
      for (const run of runs) {
        if (run.href !== undefined && !linkKeys.has(run.href)) linkKeys.set(run.href, this.#keys.make(`${key}:link:${linkKeys.size}`));
      }
      return {
        _type: 'block',
        _key: key,
        style: shape.style,
        ...list,
        markDefs: [...linkKeys].map(([href, linkKey]) => ({ _type: 'link' as const, _key: linkKey, href })),
        children: runs.map((run, index) => ({
          _type: 'span' as const,
          _key: this.#keys.make(`${key}:span:${index}`),
          text: run.text,
          marks: run.href === undefined ? run.decorators : [...run.decorators, linkKeys.get(run.href) ?? ''],
        })),
      };
    });
  }

  #imageBlock(token: Tokens.Image): void {
    const block = { _type: 'image' as const, url: token.href, alt: inlinePlainText(token.tokens) };
    this.#push(block, (key) => ({ _key: key, ...block }));
  }

  /** Keys a block from its position and content, so equal Markdown gives equal keys. */
  #push(content: unknown, build: (key: string) => PortableTextBlock): void {
    this.blocks.push(build(this.#keys.make(JSON.stringify([this.blocks.length, content]))));
  }
}

/** A table has no Portable Text form here; each row becomes a paragraph with cells separated by ` | `. */
function tableRowTokens(cells: readonly Tokens.TableCell[]): Token[] {
  return cells.flatMap((cell, index) => (index === 0 ? cell.tokens : [{ type: 'text', raw: ' | ', text: ' | ' }, ...cell.tokens]));
}

/** Throws MarkdownLimitError beyond markdownLimits; normalizePortableText turns that into an issue. */
export function markdownToPortableText(markdown: string): PortableTextBlock[] {
  // Own options rather than marked's shared defaults, which any other module could change with marked.use().
  const options = { ...getDefaults(), gfm: true, breaks: false, pedantic: false, tokenizer: new LimitedTokenizer() };
  const tokens = Lexer.lex(markdown, options);
  const converter = new MarkdownConverter();
  converter.convertBlocks(tokens, { style: 'normal' });
  return converter.blocks;
}

type Path = readonly (string | number)[];
type Report = (path: Path, message: string) => void;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

interface FieldCheck {
  field: string;
  required: boolean;
  valid: (value: unknown) => boolean;
  message: string;
}

const isString = (value: unknown): boolean => typeof value === 'string';
const stringField = (field: string, required: boolean): FieldCheck => ({ field, required, valid: isString, message: 'Must be a string' });

// The fields of the types this module writes, checked so that stored values match the exported types.
const blockChecks: Record<string, FieldCheck[]> = {
  block: [
    stringField('style', false),
    stringField('listItem', false),
    { field: 'level', required: false, valid: (level) => Number.isInteger(level) && (level as number) >= 1, message: 'Must be an integer of at least 1' },
  ],
  code: [stringField('code', true), stringField('language', false)],
  image: [stringField('url', true), stringField('alt', false)],
};
const spanChecks: FieldCheck[] = [
  stringField('text', true),
  { field: 'marks', required: false, valid: (marks) => Array.isArray(marks) && marks.every(isString), message: 'Must be an array of strings' },
];

function checkFields(object: Record<string, unknown>, checks: readonly FieldCheck[], path: Path, report: Report): void {
  for (const { field, required, valid, message } of checks) {
    if ((required || object[field] !== undefined) && !valid(object[field])) report([...path, field], message);
  }
}

/** Checks what every keyed list shares (objects with a `_type`, `_key`s unique among siblings), then each item. */
function checkList(list: readonly unknown[], path: Path, report: Report, checkItem: (item: Record<string, unknown>, path: Path) => void): void {
  const keys = new Set<string>();
  list.forEach((item, index) => {
    if (!isRecord(item)) return report([...path, index], 'Must be an object');
    if (typeof item._type !== 'string' || item._type === '') report([...path, index, '_type'], 'Must be a non-empty string');
    if (item._key !== undefined) {
      if (typeof item._key !== 'string' || item._key === '') report([...path, index, '_key'], 'Must be a non-empty string');
      else if (keys.has(item._key)) report([...path, index, '_key'], `Duplicate key "${item._key}"`);
      else keys.add(item._key);
    }
    checkItem(item, [...path, index]);
  });
}

function checkBlock(block: Record<string, unknown>, path: Path, report: Report): void {
  checkFields(block, blockChecks[String(block._type)] ?? [], path, report);
  if (block._type !== 'block') return;
  if (block.markDefs !== undefined) {
    if (Array.isArray(block.markDefs)) checkList(block.markDefs, [...path, 'markDefs'], report, () => undefined);
    else report([...path, 'markDefs'], 'Must be an array');
  }
  if (!Array.isArray(block.children)) return report([...path, 'children'], 'Must be an array of spans');
  checkList(block.children, [...path, 'children'], report, (child, childPath) => {
    if (child._type === 'span') checkFields(child, spanChecks, childPath, report);
  });
}

/**
 * Problems of a value given as Portable Text, with paths relative to the value (`2.children.0.text`)
 * so a caller can put the field's name in front. Empty when the value is valid.
 */
export function portableTextIssues(value: unknown): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const report: Report = (path, message) => issues.push({ path: path.join('.'), message });
  if (Array.isArray(value)) checkList(value, [], report, (block, path) => checkBlock(block, path, report));
  else report([], 'Must be an array of Portable Text blocks');
  return issues;
}

/** Gives keyless objects of a list a key seeded by their owner, position and content. */
function keyed(list: readonly Record<string, unknown>[], owner: string, keys: KeyMaker): PortableTextObject[] {
  return list.map((item, index) => ({
    ...item,
    _type: String(item._type),
    _key: typeof item._key === 'string' ? item._key : keys.make(JSON.stringify([owner, index, item])),
  }));
}

/** Adds what stored text blocks always have: keys everywhere, `style`, `markDefs` and span `marks`. */
function completeBlocks(blocks: readonly Record<string, unknown>[]): PortableTextBlock[] {
  const keys = new KeyMaker();
  // Keys the client chose stay as they are; reserving them first keeps added keys distinct from them.
  for (const block of blocks) {
    keys.reserve(block._key);
    for (const list of [block.markDefs, block.children]) {
      if (Array.isArray(list)) for (const item of list as Record<string, unknown>[]) keys.reserve(item._key);
    }
  }
  return keyed(blocks, '', keys).map((block): PortableTextBlock => {
    if (block._type !== 'block') return block;
    const markDefs = keyed((block.markDefs ?? []) as Record<string, unknown>[], block._key, keys);
    const children = keyed(block.children as Record<string, unknown>[], block._key, keys).map((child) =>
      child._type === 'span' ? { marks: [], ...child } : child,
    );
    return { ...block, _type: 'block', style: typeof block.style === 'string' ? block.style : 'normal', markDefs, children };
  });
}

/**
 * A `portableText` field's value as stored: a Markdown string is converted, an array is validated as
 * Portable Text and completed with deterministic keys. Anything else is an issue.
 */
export function normalizePortableText(value: unknown): NormalizedPortableText {
  if (typeof value === 'string') return normalizeMarkdown(value);
  if (!Array.isArray(value)) return { ok: false, issues: [{ path: '', message: 'Must be Portable Text (an array of blocks) or a Markdown string' }] };
  const issues = portableTextIssues(value);
  return issues.length > 0 ? { ok: false, issues } : { ok: true, blocks: completeBlocks(value as Record<string, unknown>[]) };
}

function normalizeMarkdown(markdown: string): NormalizedPortableText {
  const problem = markdownProblem(markdown);
  if (problem !== undefined) return { ok: false, issues: [{ path: '', message: problem }] };
  try {
    return { ok: true, blocks: markdownToPortableText(markdown) };
  } catch (error) {
    if (error instanceof MarkdownLimitError) return { ok: false, issues: [{ path: '', message: error.message }] };
    // The stack overflowing on nesting that the limits above did not foresee.
    if (error instanceof RangeError) return { ok: false, issues: [{ path: '', message: tooDeep }] };
    throw error;
  }
}

function isBlockLike(value: unknown): value is PortableTextBlock {
  return isRecord(value) && typeof value._type === 'string';
}

/** The texts of a block; a block that holds blocks (a quote's text, a table's cells, a caption) gives theirs. */
function blockTexts(block: PortableTextBlock): string[] {
  if (isTextBlock(block)) return [block.children.map((child) => (typeof child.text === 'string' ? child.text : '')).join('')];
  if (block._type === 'code') return typeof block.code === 'string' ? [block.code] : [];
  return Object.values(block).flatMap((value) => (Array.isArray(value) ? value.filter(isBlockLike).flatMap(blockTexts) : isBlockLike(value) ? blockTexts(value) : []));
}

/** The text of text and code blocks, one paragraph per block, nested ones included, for slugs and search. */
export function portableTextToPlainText(blocks: readonly PortableTextBlock[]): string {
  return blocks
    .flatMap(blockTexts)
    .filter((text) => text !== '')
    .join('\n\n');
}
