/**
 * JSON text read from the database, passed to the response as is: an entry's JSON columns
 * (portableText, multiSelect, json, media) were written by JSON.stringify, so parsing them only to
 * serialize them again would be the largest cost of a list page. `toJsonText` splices the text into
 * the output; any other JSON.stringify sees the parsed value, so other serializers stay correct.
 */
let spliceTarget: string[] | undefined;

export class RawJson {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }

  toJSON(): unknown {
    if (!spliceTarget) return JSON.parse(this.text);
    spliceTarget.push(this.text);
    // NUL never occurs in stored text (input with it is refused), so the marker cannot be forged.
    return `\u0000${spliceTarget.length - 1}`;
  }
}

/** JSON.stringify with every RawJson spliced in as its text. */
export function toJsonText(value: unknown): string {
  const raws: string[] = [];
  spliceTarget = raws;
  try {
    const text = JSON.stringify(value);
    return raws.length === 0 ? text : text.replace(/"\\u0000(\d+)"/g, (_, index: string) => raws[Number(index)]!);
  } finally {
    spliceTarget = undefined;
  }
}
