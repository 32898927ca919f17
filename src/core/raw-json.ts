/**
 * JSON text read from the database, passed to the response as is: an entry's JSON columns
 * (portableText, multiSelect, json, media) were written by JSON.stringify, so parsing them only to
 * serialize them again would be the largest cost of a list page. `toJsonText` splices the text into
 * the output; any other JSON.stringify sees the parsed value, so other serializers stay correct.
 *
 * How the splice finds its places: while `toJsonText` runs, each RawJson stands in the output as a
 * JSON string whose first code unit is a lone surrogate (U+D800), put there verbatim by
 * `JSON.rawJSON`. JSON.stringify escapes every lone surrogate of ordinary strings (`\ud800`, six
 * characters), so no value, key or request id can produce that code unit: the places cannot be forged.
 * JSON.stringify is synchronous, so the list of texts being spliced belongs to exactly one call.
 */
declare global {
  interface JSON {
    /** ES2025 (V8 11.4, Node 21+): text that JSON.stringify emits verbatim; a primitive's JSON only. */
    rawJSON(text: string): unknown;
  }
}

const placeMark = '\ud800';
const places = /"\ud800(\d+)"/g;
let spliceTarget: string[] | undefined;

export class RawJson {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }

  toJSON(): unknown {
    if (!spliceTarget) return JSON.parse(this.text);
    spliceTarget.push(this.text);
    return JSON.rawJSON(`"${placeMark}${spliceTarget.length - 1}"`);
  }
}

/** JSON.stringify with every RawJson spliced in as its text. */
export function toJsonText(value: unknown): string {
  const texts: string[] = [];
  const outer = spliceTarget;
  spliceTarget = texts;
  try {
    const text = JSON.stringify(value);
    return texts.length === 0 ? text : text.replace(places, (_, index: string) => texts[Number(index)]!);
  } finally {
    spliceTarget = outer;
  }
}
