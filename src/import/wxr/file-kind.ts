/**
 * What a file that is not XML looks like it is, from its first bytes: so that refusing it can say
 * "this looks like Markdown" rather than the parser's "text data outside of root node" (issue 34).
 * A few cheap checks in order, no library: archives by their magic bytes (WordPress.com hands its
 * export out as a ZIP holding the .xml), binary data by its control characters, then what the text
 * starts with. Nothing here decides whether a file is refused, only how the refusal reads.
 */

/** How much of the file's start the checks look at. */
export const headLength = 1024;

/** What a WordPress export is and where one comes from: the end of every "not an export" refusal. */
export const exportHint = 'A WordPress export is an .xml file, made in WordPress under Tools → Export.';

const zipMagic = [Buffer.from('PK\x03\x04', 'latin1'), Buffer.from('PK\x05\x06', 'latin1')];
const gzipMagic = Buffer.from([0x1f, 0x8b]);
/** Tab, line feed, form feed, carriage return: the only control bytes a text file holds. */
const textControls = new Set([0x09, 0x0a, 0x0c, 0x0d]);
const htmlStart = /^<(?:!doctype\s+html|html)[\s>]/i;
const jsonStart = /^(?:\{\s*(?:"|\})|\[\s*(?:[{["\d\]-]|true|false|null))/;
/** A heading, a fenced block, a list item, a quote or a link, Markdown's usual marks. */
const markdownMark = /^(?:#{1,6}\s|```|[-*+]\s+\S|>\s)|\[[^\]\n]+\]\([^)\n]+\)/m;

/**
 * The kind of file `head` (the file's first bytes) starts, in words for a refusal, when it is not
 * XML; undefined when it may be XML, for the parser's own finding to stand.
 */
export function nonXmlKind(head: Buffer): string | undefined {
  if (head.length === 0) return undefined;
  if (zipMagic.some((magic) => head.subarray(0, magic.length).equals(magic))) return 'a ZIP archive (unzip it and upload the .xml file it holds)';
  if (head.subarray(0, 2).equals(gzipMagic)) return 'a gzip-compressed file (uncompress it and upload the .xml file)';
  if (head.some((byte) => byte < 0x20 && !textControls.has(byte))) return 'binary data';
  const text = head.toString('utf8').replace(/^\uFEFF/, '').trimStart();
  if (htmlStart.test(text)) return 'an HTML page';
  if (text.startsWith('<')) return undefined;
  if (jsonStart.test(text)) return 'JSON';
  if (markdownMark.test(text)) return 'Markdown';
  return 'plain text';
}
