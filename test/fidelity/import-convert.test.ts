/**
 * Fidelity of the content conversion on WordPress's own theme test data (issue 15): the share of the
 * words of titles, content and excerpts that the converted blocks keep, and every link and button
 * link. The figures are computed from the shared source files and printed so they can be quoted.
 *
 * Definitions (the test measures these and nothing else):
 * - Visible text of source HTML (titles, content, excerpts alike): the text nodes of the HTML as a
 *   browser parses it, joined as shown (inline elements such as <b> or <sup> join their text to the
 *   words around them, any other element separates), without <script> and <style>, and without the
 *   tags of the shortcodes WordPress itself renders (caption, gallery, audio, video, embed, playlist),
 *   whose text is attributes rather than words.
 * - Text of converted blocks, at any depth (quotes, columns, table cells, captions…): the spans of each
 *   text block joined, the `code` of code blocks, the `text` of buttons and of a file's download
 *   button, a file's `fileName`, an embed's `url` (the address the source shows as text), plus the
 *   visible text of the raw HTML of blocks kept as raw source (`html`, `shortcode`, `wpBlock`), which
 *   is counted separately too. Titles are converted with htmlToPlainText.
 * - Words: maximal runs of letters and digits (Unicode), case-sensitive. Per item, a word counts as kept
 *   as often as it occurs in both (a multiset intersection), so a word dropped in one place is not
 *   excused by the same word elsewhere in another item.
 * - Links: every href of an <a> in content and excerpts, decoded once; kept when the converted blocks
 *   carry the same href (a link annotation, an image's or a button's or a file's href) as often.
 *   Button links: the hrefs of <a> inside `wp-block-button`; kept only by a `button` block's href.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseFragment, type DefaultTreeAdapterTypes } from 'parse5';
import { describe, expect, it } from 'vitest';
import { portableTextIssues } from '../../src/content/portable-text.ts';
import { convertPostContent, htmlToPlainText } from '../../src/import/convert/index.ts';
import { wordpressDataDir } from '../support/wordpress-data.ts';

const wordpress = wordpressDataDir;
const fixtures = join(wordpress, 'theme-test-data');
const files = ['themeunittestdata.wordpress.xml', '64-block-test-data.xml'];

interface Item {
  file: string;
  title: string;
  content: string;
  excerpt: string;
}

const xmlEntities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** The text of an XML element's content: CDATA sections joined, entities outside them decoded. */
function xmlText(raw: string): string {
  return raw.split(/(<!\[CDATA\[[\s\S]*?\]\]>)/).map((part) =>
    part.startsWith('<![CDATA[')
      ? part.slice(9, -3)
      : part.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (entity, name: string) =>
          name.startsWith('#x') || name.startsWith('#X') ? String.fromCodePoint(parseInt(name.slice(2), 16))
          : name.startsWith('#') ? String.fromCodePoint(Number(name.slice(1)))
          : (xmlEntities[name] ?? entity)),
  ).join('');
}

function field(item: string, tag: string): string {
  const match = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>|<${tag}/>`).exec(item);
  return match?.[1] === undefined ? '' : xmlText(match[1]);
}

function readItems(file: string, folder = fixtures): Item[] {
  const xml = readFileSync(join(folder, file), 'utf8');
  return [...xml.matchAll(/<item>([\s\S]*?)<\/item>/g)].map(([, item = '']) => ({
    file,
    title: field(item, 'title'),
    content: field(item, 'content:encoded'),
    excerpt: field(item, 'excerpt:encoded'),
  }));
}

type ParsedNode = DefaultTreeAdapterTypes.ChildNode;

const renderedShortcodes = /\[\/?(caption|wp_caption|gallery|audio|video|embed|playlist)\b[^\]]*\]/g;

const inlineTags = new Set(['a', 'abbr', 'b', 'strong', 'em', 'i', 'code', 'sup', 'sub', 'span', 'u', 's', 'del', 'ins', 'mark', 'small', 'cite', 'q', 'kbd', 'time', 'font', 'label']);

function visibleText(html: string): string {
  let text = '';
  const visit = (nodes: ParsedNode[]): void => {
    for (const node of nodes) {
      if (node.nodeName === '#text' && 'value' in node) text += node.value;
      if (!('tagName' in node) || node.tagName === 'script' || node.tagName === 'style') continue;
      const separate = !inlineTags.has(node.tagName);
      if (separate) text += ' ';
      visit(node.childNodes);
      if (separate) text += ' ';
    }
  };
  visit(parseFragment(html).childNodes);
  return text.replace(renderedShortcodes, ' ');
}

function sourceLinks(html: string): { links: string[]; buttons: string[] } {
  const links: string[] = [];
  const buttons: string[] = [];
  const visit = (nodes: ParsedNode[], inButton: boolean): void => {
    for (const node of nodes) {
      if (!('tagName' in node)) continue;
      const classes = (node.attrs.find((a) => a.name === 'class')?.value ?? '').split(/\s+/);
      const href = node.attrs.find((a) => a.name === 'href')?.value;
      const button = inButton || classes.includes('wp-block-button');
      if (node.tagName === 'a' && href !== undefined) (button ? buttons : links).push(href);
      visit(node.childNodes, button);
    }
  };
  visit(parseFragment(html).childNodes, false);
  return { links, buttons };
}

function words(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const word of text.match(/[\p{L}\p{N}]+/gu) ?? []) counts.set(word, (counts.get(word) ?? 0) + 1);
  return counts;
}

function total(counts: Map<string, number>): number {
  return [...counts.values()].reduce((sum, count) => sum + count, 0);
}

function kept(source: Map<string, number>, converted: Map<string, number>): number {
  return [...source].reduce((sum, [word, count]) => sum + Math.min(count, converted.get(word) ?? 0), 0);
}

const rawTypes = new Set(['html', 'shortcode', 'wpBlock']);

/** Text, hrefs and button hrefs of converted blocks, at any depth; raw sources' text apart. */
function convertedParts(blocks: unknown): { text: string[]; raw: string[]; hrefs: string[]; buttons: string[] } {
  const parts = { text: [] as string[], raw: [] as string[], hrefs: [] as string[], buttons: [] as string[] };
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (typeof value !== 'object' || value === null) return;
    const object = value as Record<string, unknown>;
    if (object._type === 'block' && Array.isArray(object.children)) parts.text.push(object.children.map((child: { text?: unknown }) => (typeof child.text === 'string' ? child.text : '')).join(''));
    if (object._type === 'code' && typeof object.code === 'string') parts.text.push(object.code);
    if (object._type === 'button' && typeof object.text === 'string') parts.text.push(object.text);
    if (object._type === 'file') parts.text.push(String(object.fileName ?? ''), String((object.downloadButton as { text?: string } | undefined)?.text ?? ''));
    if (object._type === 'embed' && typeof object.url === 'string') parts.text.push(object.url);
    if (typeof object.href === 'string') (object._type === 'button' ? parts.buttons : parts.hrefs).push(object.href);
    if (rawTypes.has(String(object._type))) {
      for (const raw of [object.html, object.source]) {
        if (typeof raw !== 'string') continue;
        parts.raw.push(visibleText(raw));
        const { links, buttons } = sourceLinks(raw);
        parts.hrefs.push(...links, ...buttons);
      }
    }
    Object.values(object).forEach(visit);
  };
  visit(blocks);
  return parts;
}

function missing(source: readonly string[], converted: readonly string[]): string[] {
  const left = [...converted];
  return source.filter((href) => {
    const index = left.indexOf(href);
    if (index === -1) return true;
    left.splice(index, 1);
    return false;
  });
}

describe('content conversion fidelity on the theme test data', () => {
  it('keeps at least 99.5% of the words of titles, content and excerpts, every link and every button link', () => {
    const figures = { items: 0, sourceWords: 0, keptWords: 0, keptOnlyRaw: 0, links: 0, buttonLinks: 0 };
    const lostLinks: string[] = [];
    const lostWords: string[] = [];
    for (const item of files.flatMap((file) => readItems(file))) {
      figures.items++;
      const content = convertPostContent(item.content);
      const excerpt = convertPostContent(item.excerpt);
      expect(portableTextIssues(content.blocks), item.title).toEqual([]);
      expect(portableTextIssues(excerpt.blocks), item.title).toEqual([]);
      const parts = convertedParts([content.blocks, excerpt.blocks]);
      const source = words([visibleText(item.title), visibleText(item.content), visibleText(item.excerpt)].join(' '));
      const convertedText = words([htmlToPlainText(item.title), ...parts.text].join(' '));
      const withRaw = words([htmlToPlainText(item.title), ...parts.text, ...parts.raw].join(' '));
      const keptHere = kept(source, withRaw);
      figures.sourceWords += total(source);
      figures.keptWords += keptHere;
      figures.keptOnlyRaw += keptHere - kept(source, convertedText);
      for (const [word, count] of source) {
        const lost = count - Math.min(count, withRaw.get(word) ?? 0);
        if (lost > 0) lostWords.push(`${item.title}: ${word}×${lost}`);
      }
      const links = [item.content, item.excerpt].map(sourceLinks);
      const sourceHrefs = links.flatMap((found) => found.links);
      const sourceButtons = links.flatMap((found) => found.buttons);
      figures.links += sourceHrefs.length;
      figures.buttonLinks += sourceButtons.length;
      lostLinks.push(...missing(sourceHrefs, [...parts.hrefs, ...parts.buttons]).map((href) => `${item.title}: ${href}`));
      lostLinks.push(...missing(sourceButtons, parts.buttons).map((href) => `${item.title}: button ${href}`));
    }
    const share = (figures.keptWords / figures.sourceWords) * 100;
    process.stdout.write(
      `Conversion fidelity (${files.join(', ')}): ${figures.items} items; words kept ${figures.keptWords}/${figures.sourceWords} = ${share.toFixed(2)}% ` +
        `(${figures.keptOnlyRaw} of them only in raw-source blocks); links kept ${figures.links - lostLinks.filter((l) => !l.includes(': button ')).length}/${figures.links}; ` +
        `button links kept ${figures.buttonLinks - lostLinks.filter((l) => l.includes(': button ')).length}/${figures.buttonLinks}\n`,
    );
    if (process.env.SHOW_LOST) process.stdout.write(lostWords.join("\n") + "\n");
    expect(lostLinks).toEqual([]);
    expect(lostWords.length === 0 || share >= 99.5, lostWords.slice(0, 50).join('\n')).toBe(true);
    expect(share).toBeGreaterThanOrEqual(99.5);
  });

  it('converts every item of every shared WordPress export, the importer edge cases included, to valid Portable Text', () => {
    let items = 0;
    for (const folder of ['theme-test-data', 'importer-edge-cases'].map((name) => join(wordpress, name))) {
      for (const file of readdirSync(folder).filter((name) => name.endsWith('.xml'))) {
        for (const item of readItems(file, folder)) {
          for (const html of [item.content, item.excerpt]) {
            const { blocks, warnings } = convertPostContent(html, { siteUrl: 'https://example.com' });
            expect(portableTextIssues(blocks), `${file}: ${item.title}`).toEqual([]);
            expect(warnings.every((warning) => typeof warning === 'string' && warning !== '')).toBe(true);
          }
          items++;
        }
      }
    }
    expect(items).toBeGreaterThan(300);
  });
});
