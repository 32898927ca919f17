/**
 * A word-level comparison of two texts for the revisions screen: the words kept, removed and added,
 * in reading order. Written here rather than taken from a library: what the screen needs is one
 * function over words, and a longest common subsequence over the part between the shared start and
 * end is a few lines (decisions/0046).
 */

export type DiffPart = { kind: 'same' | 'removed' | 'added'; text: string };

/** Past this many word pairs the middle is shown as replaced whole: the table would cost too much memory. */
const maxCells = 4_000_000;

/** Words and the spaces between them, so joining the tokens gives the text back exactly. */
function tokens(text: string): string[] {
  return text.split(/(\s+)/).filter((token) => token !== '');
}

export function diffWords(before: string, after: string): DiffPart[] {
  const a = tokens(before);
  const b = tokens(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const parts: DiffPart[] = [];
  const push = (kind: DiffPart['kind'], text: string) => {
    const last = parts.at(-1);
    if (last?.kind === kind) last.text += text;
    else if (text !== '') parts.push({ kind, text });
  };
  push('same', a.slice(0, start).join(''));
  const middleA = a.slice(start, endA);
  const middleB = b.slice(start, endB);
  if (middleA.length * middleB.length > maxCells) {
    push('removed', middleA.join(''));
    push('added', middleB.join(''));
  } else {
    for (const part of commonSubsequence(middleA, middleB)) push(part.kind, part.text);
  }
  push('same', a.slice(endA).join(''));
  return parts;
}

/** The classic dynamic programme: lengths[i][j] is the longest common run of a[i..] and b[j..]. */
function commonSubsequence(a: string[], b: string[]): DiffPart[] {
  const width = b.length + 1;
  const lengths = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lengths[i * width + j] = a[i] === b[j] ? lengths[(i + 1) * width + j + 1]! + 1 : Math.max(lengths[(i + 1) * width + j]!, lengths[i * width + j + 1]!);
    }
  }
  const parts: DiffPart[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      parts.push({ kind: 'same', text: a[i++]! });
      j++;
    } else if (j < b.length && (i === a.length || lengths[i * width + j + 1]! >= lengths[(i + 1) * width + j]!)) {
      parts.push({ kind: 'added', text: b[j++]! });
    } else {
      parts.push({ kind: 'removed', text: a[i++]! });
    }
  }
  return parts;
}

/** A Portable Text value as plain text, a block a paragraph; a block without text (an image, a custom block) shows as its type. */
export function portableTextPlain(value: unknown): string {
  if (!Array.isArray(value)) return typeof value === 'string' ? value : '';
  return value
    .map((block: unknown) => {
      if (typeof block !== 'object' || block === null) return '';
      const { _type, children } = block as { _type?: unknown; children?: unknown };
      if (Array.isArray(children)) return children.map((child: unknown) => (typeof (child as { text?: unknown })?.text === 'string' ? (child as { text: string }).text : '')).join('');
      return `[${typeof _type === 'string' ? _type : 'block'}]`;
    })
    .join('\n\n');
}
