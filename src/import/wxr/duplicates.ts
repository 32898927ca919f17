import type { Readable } from 'node:stream';
import { readWxr } from './reader.ts';
import type { WxrItem, WxrRecord } from './records.ts';

/**
 * One item per post id, as WordPress's importer keeps them. Real exports hold an item twice: a stub
 * with a title and a post id but no post type or status, then the whole page later (issue 34), or
 * the same item twice over. The item that stands for its id is the complete one (it names its post
 * type and its status), else the first; every other one is set aside, for the report to name as
 * skipped, so that no item of the file goes unaccounted for. The analysis and the import both read
 * the export through here, so what one counts the other imports.
 *
 * Whether a partial item stands is known only at the file's end, since a complete one may follow:
 * partial items wait, by their place in the file (never their text: memory holds one item's text,
 * and each id once), and those no complete item replaced are read again at the end, in file order.
 */

/** What the report needs of an item that is set aside. */
export type ItemRef = Pick<WxrItem, 'id' | 'title' | 'postType'>;

/** Why an item is set aside, in a word the analysis groups by. */
export type SetAsideCause = 'no post id' | 'duplicate' | 'partial duplicate';

export interface SetAside {
  kind: 'setAside';
  item: ItemRef;
  cause: SetAsideCause;
  /** The cause in words, naming both items' places in the file. */
  reason: string;
}

export type ChosenRecord = WxrRecord | SetAside;

/** The item with WordPress's own post type, `post`, if it names none. */
function withPostType(item: WxrItem): WxrItem {
  return item.postType === '' ? { ...item, postType: 'post' } : item;
}

/** An item names its post type and status: a stub of one does not. */
function isComplete(item: WxrItem): boolean {
  return item.postType !== '' && item.status !== '';
}

/** WordPress.com lists a menu item once per menu holding it, under one id: those are told apart by menu. */
function keyOf(item: WxrItem): string {
  const menu = item.postType === 'nav_menu_item' ? item.terms.find((term) => term.taxonomy === 'nav_menu') : undefined;
  return menu ? `${menu.slug}/${item.id}` : item.id;
}

/** An item's place in the file, for a reason to name. */
interface Place {
  /** 1 for the file's first item. */
  ordinal: number;
  line: number;
}

function setAside(item: ItemRef, place: Place, cause: SetAsideCause, kept?: Place): SetAside {
  const where = (at: Place) => `<item> number ${at.ordinal} of the file, line ${at.line}`;
  const reason = kept ? `a ${cause} of item ${item.id} (${where(place)}): item ${item.id} is imported from ${where(kept)}` : `no post id (${where(place)}): items are imported by their wp:post_id`;
  return { kind: 'setAside', item, cause, reason };
}

interface Placed {
  place: Place;
  item: ItemRef;
}

/** A partial item waiting for the file's end, and the partial items after it with its id. */
interface Waiting extends Placed {
  twins: Placed[];
}

/**
 * The export's records with one item per post id (each with its post type filled in) and a
 * `setAside` record for every other item, which comes after the item that stands for its id.
 */
export async function* readOnePerId(open: () => Promise<Readable>): AsyncGenerator<ChosenRecord> {
  /** Each id's item once it has been given out, by where it is. */
  const given = new Map<string, Place>();
  const waiting = new Map<string, Waiting>();
  let ordinal = 0;
  for await (const record of readWxr(await open())) {
    if (record.kind !== 'item') {
      yield record;
      continue;
    }
    const item = withPostType(record.item);
    const place = { ordinal: ++ordinal, line: item.line };
    const complete = isComplete(record.item);
    if (item.id === '') {
      yield setAside(item, place, 'no post id');
      continue;
    }
    const key = keyOf(item);
    const kept = given.get(key);
    const stub = waiting.get(key);
    if (kept) {
      yield setAside(item, place, complete ? 'duplicate' : 'partial duplicate', kept);
    } else if (complete) {
      given.set(key, place);
      yield { kind: 'item', item };
      if (stub) {
        waiting.delete(key);
        for (const partial of [stub, ...stub.twins]) yield setAside(partial.item, partial.place, 'partial duplicate', place);
      }
    } else if (stub) {
      stub.twins.push({ place, item: refOf(item) });
    } else {
      waiting.set(key, { place, item: refOf(item), twins: [] });
    }
  }
  if (waiting.size === 0) return;
  yield* partialsAlone(open, new Map([...waiting.values()].map((stub) => [stub.place.ordinal, stub])));
}

/** The partial items no complete one replaced, read again: each stands for its id, its twins set aside. */
async function* partialsAlone(open: () => Promise<Readable>, byOrdinal: Map<number, Waiting>): AsyncGenerator<ChosenRecord> {
  let ordinal = 0;
  for await (const record of readWxr(await open())) {
    if (record.kind !== 'item') continue;
    const stub = byOrdinal.get(++ordinal);
    if (!stub) continue;
    yield { kind: 'item', item: withPostType(record.item) };
    for (const twin of stub.twins) yield setAside(twin.item, twin.place, 'partial duplicate', stub.place);
  }
}

function refOf({ id, title, postType }: WxrItem): ItemRef {
  return { id, title, postType };
}
