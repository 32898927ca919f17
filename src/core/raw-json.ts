/**
 * JSON text read from the database, passed to the response as is: an entry's JSON columns
 * (portableText, multiSelect, json, media) were written by JSON.stringify, so parsing them only to
 * serialize them again would be the largest cost of a list page. A JsonWriter splices the text into
 * the output; any other JSON.stringify sees the parsed value, so other serializers stay correct.
 *
 * How the splice finds its places: while a JsonWriter writes, each RawJson stands in the output as a
 * JSON string that starts with the escape `\uFFFF`, put there verbatim by `JSON.rawJSON`.
 * JSON.stringify writes a `\u` escape only for a control character or a lone surrogate (in lower
 * case), and a backslash of a value as `\\`: so no value, key or request id can produce a quote
 * followed by that escape, and the places cannot be forged. The place is ASCII, so the output stays
 * a one-byte string: a lone surrogate as the mark (what this used before) made every response with a
 * JSON column a two-byte string, twice the memory, slower to search, to embed in another JSON text
 * (MCP's tool results) and to encode for the socket.
 */
declare global {
  interface JSON {
    /** ES2025 (V8 11.4, Node 21+): text that JSON.stringify emits verbatim; a primitive's JSON only. */
    rawJSON(text: string): unknown;
  }
}

const placeMark = '\\uFFFF';
const places = /"\\uFFFF(\d+)"/g;

export class RawJson {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }

  toJSON(): unknown {
    return JsonWriter.placeOf(this);
  }
}

/**
 * Writes JSON text with every RawJson spliced in as its text. A writer keeps the texts of the write
 * it is doing: the app has one for its responses (each request's `json`), the MCP endpoint one for
 * tool results, the plugin host one for queued events.
 */
export class JsonWriter {
  /**
   * The writer whose write is running. A RawJson's toJSON is called with no word of who asks, so it
   * looks here; JSON.stringify is synchronous, so one write runs at a time, and one nested in it
   * puts the outer writer back when it ends.
   */
  static #writing: JsonWriter | undefined;
  /** The texts of the write in progress, by the number of their place. */
  #texts: string[] = [];

  /** JSON.stringify with every RawJson spliced in as its text. */
  write(value: unknown): string {
    const outer = JsonWriter.#writing;
    const outerTexts = this.#texts;
    const texts: string[] = [];
    JsonWriter.#writing = this;
    this.#texts = texts;
    try {
      const text = JSON.stringify(value);
      return texts.length === 0 ? text : text.replace(places, (_, index: string) => texts[Number(index)]!);
    } finally {
      JsonWriter.#writing = outer;
      this.#texts = outerTexts;
    }
  }

  /** What `raw` stands as: its place while a writer writes, the parsed value for any other JSON.stringify. */
  static placeOf(raw: RawJson): unknown {
    const writer = JsonWriter.#writing;
    if (!writer) return JSON.parse(raw.text);
    const index = writer.#texts.push(raw.text) - 1;
    return JSON.rawJSON(`"${placeMark}${index}"`);
  }
}
