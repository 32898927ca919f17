/**
 * Finds an `&` that begins no reference (`&amp;`, `&#38;`, `&#x26;`): XML allows a bare `&` only in
 * CDATA sections, comments and processing instructions. saxes reads a bare `&` as the start of an
 * entity name that runs to the next `;`, so the error it reports comes later, lines later at times
 * (at that `;`, or at the file's end as an unclosed tag: issue 34). Looking at the text before the
 * parser does lets a refusal name the `&` itself. The text comes in chunks: a section's start or end,
 * or a reference, cut by a chunk's end is held back until the next chunk decides it.
 */

/** Where `&` is text, by how each such place starts and ends. */
const sections: readonly (readonly [start: string, end: string])[] = [
  ['<![CDATA[', ']]>'],
  ['<!--', '-->'],
  ['<?', '?>'],
];
const longestStart = Math.max(...sections.map(([start]) => start.length));

const markup = /[<&]/g;
/** A whole reference; a named one that is not XML's own is saxes' to refuse (an undefined entity), at its own place. */
const reference = /&(?:#[0-9]+|#x[0-9a-fA-F]+|[A-Za-z_:][-\w.:]*);/y;
/** The start of a reference that the next chunk may complete. */
const referenceStart = /^&(?:#x?[0-9a-fA-F]*|[A-Za-z_:][-\w.:]*)?$/;
/** Longer than any reference a WordPress export holds (`&#x10FFFF;`): past this, an unended one is bare. */
const longestReference = 32;

export class AmpersandCheck {
  /** The end of the section the text is in, where `&` is text; undefined outside one. */
  private sectionEnd: string | undefined;
  /** The end of the last chunk, undecided: it goes before the next one. */
  private held = '';

  /**
   * Takes the next chunk of the text. Returns what the parser may read now (the chunk with what
   * was held back, less what is held back now) and whether a bare `&` comes right after it.
   */
  next(chunk: string): { text: string; bareAmpersand: boolean } {
    const text = this.held + chunk;
    this.held = '';
    let at = 0;
    while (at < text.length) {
      if (this.sectionEnd !== undefined) {
        const end = text.indexOf(this.sectionEnd, at);
        // The end marker may be cut by the chunk's end: its first characters wait for the next chunk.
        if (end < 0) return this.holdFrom(text, Math.max(at, text.length - this.sectionEnd.length + 1));
        at = end + this.sectionEnd.length;
        this.sectionEnd = undefined;
        continue;
      }
      markup.lastIndex = at;
      const mark = markup.exec(text)?.index;
      if (mark === undefined) break;
      if (text[mark] === '<') {
        const section = sections.find(([start]) => text.startsWith(start, mark));
        if (section) {
          this.sectionEnd = section[1];
          at = mark + section[0].length;
        } else if (text.length - mark < longestStart && sections.some(([start]) => start.startsWith(text.slice(mark)))) {
          return this.holdFrom(text, mark);
        } else {
          at = mark + 1;
        }
        continue;
      }
      reference.lastIndex = mark;
      const whole = reference.exec(text);
      if (whole) {
        at = mark + whole[0].length;
      } else if (text.length - mark < longestReference && referenceStart.test(text.slice(mark))) {
        return this.holdFrom(text, mark);
      } else {
        return { text: text.slice(0, mark), bareAmpersand: true };
      }
    }
    return { text, bareAmpersand: false };
  }

  /** At the file's end, what is still held back: the parser judges it (a file cut short ends there). */
  end(): string {
    const rest = this.held;
    this.held = '';
    return rest;
  }

  private holdFrom(text: string, from: number): { text: string; bareAmpersand: boolean } {
    this.held = text.slice(from);
    return { text: text.slice(0, from), bareAmpersand: false };
  }
}
