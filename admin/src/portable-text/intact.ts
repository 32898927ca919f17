import type { Patch, PortableTextBlock } from '@portabletext/editor';

/**
 * What comes in and is not edited goes out the same (decisions/0044). The editor normalizes what it
 * loads (an unused link definition dropped, an empty block given an empty span); a block nobody
 * touched must still be saved exactly as it came, byte for byte. So the value handed to the form
 * takes each block from the editor only once a patch has named it, and the block that came in
 * otherwise: one Map lookup per block per change, no comparison of contents.
 */
export class IntactBlocks {
  readonly #incoming = new Map<string, unknown>();
  readonly #edited = new Set<string>();
  /** Set by a patch on the whole value (no block key): from then on the editor's blocks are taken as they are. */
  #allEdited = false;

  constructor(value: readonly unknown[] | undefined) {
    this.reset(value);
  }

  /** A value from outside (loaded, restored, the other side of a conflict) is the new reference. */
  reset(value: readonly unknown[] | undefined): void {
    this.#incoming.clear();
    this.#edited.clear();
    this.#allEdited = false;
    for (const block of value ?? []) {
      const key = (block as { _key?: unknown } | null)?._key;
      if (typeof key === 'string') this.#incoming.set(key, block);
    }
  }

  /** Notes the blocks these patches changed. */
  note(patches: readonly Patch[]): void {
    for (const patch of patches) {
      const first = patch.path[0];
      if (typeof first === 'object' && first !== null && '_key' in first) this.#edited.add(first._key);
      else this.#allEdited = true;
    }
  }

  /** The value to save: edited blocks from the editor, the others as they came. */
  merge(value: readonly PortableTextBlock[] | undefined): unknown[] {
    if (!value) return [];
    if (this.#allEdited) return [...value];
    return value.map((block) => (this.#edited.has(block._key) ? block : (this.#incoming.get(block._key) ?? block)));
  }
}
