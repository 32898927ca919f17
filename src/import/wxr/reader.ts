import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { SaxesParser, type SaxesTagNS } from 'saxes';
import { AppError } from '../../core/errors.ts';
import { AmpersandCheck } from './ampersands.ts';
import { emptyChannel, fillChannel, recordReaders, type RecordReader } from './elements.ts';
import { exportHint, headLength, nonXmlKind } from './file-kind.ts';
import type { WxrRecord } from './records.ts';

/**
 * Reads a WordPress export (WXR) as a stream of records: the channel (site title, URL, version), then
 * authors, terms and items as they come. saxes parses it event by event, so memory holds one record
 * at a time whatever the file's size. A DOCTYPE is refused outright: entity declarations (expansion
 * bombs, external entities) have no place in an export, and saxes then expands no entity beyond XML's five.
 */

/** WXR versions WordPress has written (1.0 in 2.x, 1.1 in 3.0, 1.2 since 3.1). */
export const wxrVersions = ['1.0', '1.1', '1.2'] as const;

/** The largest text one element may hold (a post's content): a bound on memory per record. */
const maxTextLength = 32 * 1024 * 1024;

const wordpressNs = /^https?:\/\/wordpress\.org\/export\/1\.[0-2]\/$/;
const excerptNs = /^https?:\/\/wordpress\.org\/export\/1\.[0-2]\/excerpt\/$/;
const contentNs = 'http://purl.org/rss/1.0/modules/content/';
const dcNs = 'http://purl.org/dc/elements/1.1/';

/** The file is not a WordPress export Folio can read: a 400 naming the problem. */
export function badExport(message: string): AppError {
  return new AppError('VALIDATION_ERROR', message, { issues: [{ path: 'file', message }] });
}

/** An element name as the reader matches it: `wp:post_id`, `content:encoded`, or a plain RSS name. */
function qualified(tag: SaxesTagNS): string {
  const uri = tag.uri;
  if (wordpressNs.test(uri)) return `wp:${tag.local}`;
  if (excerptNs.test(uri)) return `excerpt:${tag.local}`;
  if (uri === contentNs) return `content:${tag.local}`;
  if (uri === dcNs) return `dc:${tag.local}`;
  return uri === '' ? tag.local : `other:${tag.local}`;
}

function attributesOf(tag: SaxesTagNS): Record<string, string> {
  const attributes: Record<string, string> = {};
  for (const [key, attribute] of Object.entries(tag.attributes)) attributes[key] = attribute.value;
  return attributes;
}

/** An element being read: as the reader names it, as the file writes it, and the line it opens on. */
interface OpenElement {
  name: string;
  tag: string;
  line: number;
}

/**
 * The document as read so far, in one object that the parser's events go to: where the reader is
 * (the open elements, the text of the innermost), the channel, the record being read, and the
 * records read and not yet yielded. The root is at depth 0, the channel at 1, records at 2.
 */
class WxrDocument {
  /** Records read, in file order, waiting to be yielded. */
  readonly ready: WxrRecord[] = [];
  private sawRoot = false;
  private sawChannel = false;
  /** The open elements, the root's first. */
  private readonly open: OpenElement[] = [];
  /** The element closed last: when a close tag matches no open element, saxes closes the innermost before it complains. */
  private closedLast: OpenElement | undefined;
  private text = '';
  private readonly channel = emptyChannel();
  private channelSent = false;
  /** The author, term or item being read, if any: its element is a child of the channel. */
  private record: RecordReader | undefined;

  /** Whether the root element has opened: before it, a file may not be XML at all. */
  get started(): boolean {
    return this.sawRoot;
  }

  /** The innermost element still open, if any: at the file's end, the one never closed. */
  get innermost(): OpenElement | undefined {
    return this.open.at(-1);
  }

  get lastClosed(): OpenElement | undefined {
    return this.closedLast;
  }

  /** `line`: the line the tag is on. */
  openTag(tag: SaxesTagNS, line: number): void {
    const name = qualified(tag);
    const depth = this.open.length;
    if (depth === 0) {
      this.sawRoot = true;
      if (name !== 'rss') throw badExport(`Not a WordPress export: the root element is <${tag.name}>, not <rss>. ${exportHint}`);
    } else if (depth === 1 && name === 'channel') {
      this.sawChannel = true;
    } else if (depth === 2 && this.sawChannel) {
      const startRecord = recordReaders.get(name);
      if (startRecord) {
        this.sendChannel();
        this.record = startRecord(line);
      }
    } else {
      this.record?.open?.(name, attributesOf(tag), depth === 3);
    }
    this.open.push({ name, tag: tag.name, line });
    this.text = '';
  }

  addText(chunk: string): void {
    if (this.text.length + chunk.length > maxTextLength) throw badExport(`An element holds more than ${maxTextLength} characters of text`);
    this.text += chunk;
  }

  closeTag(): void {
    this.closedLast = this.open.pop()!;
    const { name } = this.closedLast;
    const text = this.text;
    this.text = '';
    const depth = this.open.length;
    if (this.record) {
      if (depth === 2) {
        this.ready.push(this.record.done());
        this.record = undefined;
      } else {
        this.record.close(name, text, depth === 3);
      }
    } else if (depth === 2 && this.sawChannel) {
      fillChannel(this.channel, name, text);
    } else if (depth === 1 && name === 'channel') {
      this.sendChannel();
    }
  }

  /** After the last byte: a file with no element, or no channel, is no export. */
  finish(): void {
    if (!this.sawRoot) throw badExport(`Not XML: the file holds no element. ${exportHint}`);
    if (!this.sawChannel) throw badExport(`Not a WordPress export: the file has no <channel>. ${exportHint}`);
  }

  /** The channel record goes first, once: before the first record, or at the channel's end if it has none. */
  private sendChannel(): void {
    if (this.channelSent) return;
    const { version } = this.channel;
    if (version === '') throw badExport('Not a WordPress export: the file names no WXR version (<wp:wxr_version>)');
    if (!(wxrVersions as readonly string[]).includes(version)) {
      throw badExport(`Unknown WXR version ${JSON.stringify(version.slice(0, 40))}; Folio reads versions ${wxrVersions.join(', ')}`);
    }
    this.channelSent = true;
    this.ready.push({ kind: 'channel', channel: { ...this.channel } });
  }
}

/**
 * The records of the export in `source`, in file order. The channel record comes first, once its
 * version is known (before the first author, term or item); a file that is not a readable WXR fails
 * with a 400 before any record after the fault is yielded. The refusal says what the file looks like
 * when it is not XML at all, and otherwise names the line and character where the fault is.
 */
export async function* readWxr(source: Readable | AsyncIterable<Buffer | string>): AsyncGenerator<WxrRecord> {
  const parser = new SaxesParser({ xmlns: true, position: true });
  const document = new WxrDocument();
  parser.on('doctype', () => {
    throw badExport('The file has a DOCTYPE: entity declarations are refused (a WordPress export has none)');
  });
  parser.on('opentag', (tag) => document.openTag(tag as SaxesTagNS, parser.line));
  parser.on('text', (chunk) => document.addText(chunk));
  parser.on('cdata', (chunk) => document.addText(chunk));
  parser.on('closetag', () => document.closeTag());

  let head = Buffer.alloc(0);
  /** Why the file is refused: what it is, when it is not XML; else the fault, where the parser met it. */
  const refusal = (error: unknown): AppError => {
    const kind = document.started ? undefined : nonXmlKind(head);
    if (kind !== undefined) return badExport(`This file looks like ${kind}, not a WordPress export. ${exportHint}`);
    if (error instanceof AppError) return error;
    // saxes starts its messages with the position, which the refusal words itself.
    const problem = (error as Error).message.replace(/^\d+:\d+: /, '');
    const unmatched = problem === 'unexpected close tag.' ? document.lastClosed : undefined;
    return malformed(parser, unmatched ? `a close tag that does not match <${unmatched.tag}>, which opens at line ${unmatched.line} and is never closed` : problem);
  };
  const ampersands = new AmpersandCheck();
  /** Parses text; a bare `&` is refused where it stands, once the parser has read all before it. */
  const parse = (text: string, bareAmpersand = false) => {
    try {
      parser.write(text);
      if (bareAmpersand) throw malformed(parser, 'an & that begins no character reference (write &amp; for the character itself)', 1);
    } catch (error) {
      throw refusal(error);
    }
  };

  const decoder = new StringDecoder('utf8');
  let sawBytes = false;
  for await (const chunk of source) {
    if (head.length < headLength) head = Buffer.concat([head, typeof chunk === 'string' ? Buffer.from(chunk) : chunk]).subarray(0, headLength);
    const piece = typeof chunk === 'string' ? chunk : decoder.write(chunk);
    if (piece.length === 0) continue;
    if (!sawBytes && piece.trim() !== '') sawBytes = true;
    const checked = ampersands.next(piece);
    parse(checked.text, checked.bareAmpersand);
    yield* document.ready.splice(0);
  }
  if (!sawBytes) throw badExport(`The file is empty. ${exportHint}`);
  const last = ampersands.next(decoder.end());
  parse(last.text, last.bareAmpersand);
  parse(ampersands.end());
  // The parser would name the last line; the fault is where the element that is never closed opens.
  const unclosed = document.innermost;
  if (unclosed) throw badExport(`Malformed XML: the file ends inside <${unclosed.tag}>, which opens at line ${unclosed.line} and is never closed`);
  try {
    parser.close();
    document.finish();
  } catch (error) {
    throw refusal(error);
  }
  yield* document.ready.splice(0);
}

/**
 * Malformed XML, at the parser's position: the character it read last (`ahead` 1: the one it reads
 * next), counted from 1 as an editor counts them.
 */
function malformed(parser: SaxesParser, problem: string, ahead = 0): AppError {
  return badExport(`Malformed XML at line ${parser.line}, character ${parser.column + ahead}: ${problem}`);
}
