import { api, ApiError, dataOf, issuesOf, type ContentCollection, type Entry } from '../../api/client';
import { fieldsSettled } from '../../fields/settling';
import { localDraftKey, readLocalDraft, writeLocalDraft, type LocalDraft } from './local-drafts';
import { bodyData, sameValue, type Values } from './values';

/** How long typing must stop before the edits are sent as a draft. */
export const autosaveDelay = 2000;
/** How soon a save that could not reach the server (offline, a server error) is tried again. */
const retryDelay = 3000;

export type SaveState =
  | 'loaded' // nothing to send
  | 'pending' // edits wait for typing to stop
  | 'saving'
  | 'saved'
  | 'offline' // the server could not be reached: kept here, tried again
  | 'invalid' // the server refused a value: shown at its field, sent again once changed
  | 'conflict' // someone else saved first: the dialog decides
  | 'signed-out' // the session ended: sign in again, then retry
  | 'gone' // the entry was deleted elsewhere
  | 'failed'; // another error, named; tried again

/** A field both sides changed: the server's value now and the editor's. */
export interface ConflictField {
  slug: string;
  theirs: unknown;
  mine: unknown;
}

export interface SessionState {
  /** The server's version the edits are based on; undefined for a new entry not yet saved. */
  entry: Entry | undefined;
  /** Unsent values by field slug (null clears a field). */
  edits: Values;
  save: SaveState;
  /** The API's complaint per field slug (a 400's details). */
  issues: Record<string, string>;
  /** What went wrong, for errors that belong to no field. */
  message?: string;
  conflict?: { theirs: Entry; fields: ConflictField[] };
  /** Unsent edits found in the browser from an earlier visit, offered back. */
  recovered?: LocalDraft;
  /** Set once the entry is in the trash (from this screen). */
  trashed: boolean;
  /** A life-cycle action under way, by name. */
  busy?: string;
}

type Listener = () => void;
type Action = 'publish' | 'unpublish' | 'discard-draft' | 'restore' | 'unschedule' | 'trash' | 'delete' | 'duplicate' | { schedule: string };

/**
 * One entry being edited: its server version, the edits not yet sent, and the one save in flight.
 * It lives outside React (screens subscribe to it), so a screen that unmounts, or a new entry's
 * screen that becomes the created entry's, never drops a save or an edit (decisions/0043).
 *
 * Saves go one at a time, in order, each with the `_rev` of the version it is based on; what was
 * typed while one was in flight goes in the next. A value is forgotten only once the server answered
 * with it saved, and the browser's copy (local-drafts.ts) follows the edits.
 */
export class EntrySession {
  readonly collection: ContentCollection;
  private state: SessionState;
  private listeners = new Set<Listener>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private inFlight: Promise<void> | undefined;
  private localKey: string;
  /** Called with the entry once a new entry is created, to show its own address. */
  onCreated?: (entry: Entry) => void;

  constructor(collection: ContentCollection, entry: Entry | undefined) {
    this.collection = collection;
    this.state = { entry, edits: {}, save: 'loaded', issues: {}, trashed: false };
    this.localKey = localDraftKey(collection.slug, entry?.id);
    window.addEventListener('online', this.whenOnline);
    void this.lookForLocal();
  }

  subscribe = (listener: Listener) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  snapshot = () => this.state;

  /** Whether anything is unsent or being sent: a session left with nothing in hand can be dropped. */
  get idle(): boolean {
    return Object.keys(this.state.edits).length === 0 && this.inFlight === undefined && this.state.recovered === undefined && this.state.busy === undefined;
  }

  dispose() {
    window.removeEventListener('online', this.whenOnline);
    clearTimeout(this.timer);
  }

  /** The values the form shows: the server's with the edits over them. */
  values(): Values {
    return { ...(this.state.entry?.data ?? {}), ...this.state.edits };
  }

  private set(change: Partial<SessionState>) {
    this.state = { ...this.state, ...change };
    for (const listener of this.listeners) listener();
  }

  private async lookForLocal() {
    const found = await readLocalDraft(this.localKey);
    if (!found || Object.keys(found.edits).length === 0) return;
    // Edits the server already has (a save that landed before the tab closed) are nothing to offer.
    const data = this.state.entry?.data ?? {};
    const unsent = Object.fromEntries(Object.entries(found.edits).filter(([slug, value]) => !sameValue(value, data[slug])));
    if (Object.keys(unsent).length === 0) {
      void writeLocalDraft(this.localKey, undefined);
      return;
    }
    this.set({ recovered: { ...found, edits: unsent } });
  }

  private keepLocally() {
    const edits = { ...(this.state.recovered?.edits ?? {}), ...this.state.edits };
    void writeLocalDraft(this.localKey, { edits, rev: this.state.entry?._rev, savedAt: new Date().toISOString() });
  }

  /** A field changed in the form: kept, in the browser too, and sent once typing stops. */
  change(slug: string, value: unknown) {
    const issues = { ...this.state.issues };
    delete issues[slug];
    const edits = { ...this.state.edits, [slug]: value === undefined ? null : value };
    // Back to the server's value: nothing to send for it.
    if (this.state.entry && sameValue(edits[slug], this.state.entry.data[slug])) delete edits[slug];
    const blocked = this.state.save === 'conflict' || this.state.save === 'signed-out' || this.state.save === 'gone';
    this.set({ edits, issues, save: blocked ? this.state.save : 'pending' });
    this.keepLocally();
    if (!blocked) this.schedule(autosaveDelay);
  }

  /** The earlier visit's edits put back in the form (over what the server has now), to be saved. */
  restoreRecovered() {
    const recovered = this.state.recovered;
    if (!recovered) return;
    this.set({ recovered: undefined, edits: { ...recovered.edits, ...this.state.edits }, save: 'pending' });
    this.keepLocally();
    this.schedule(0);
  }

  discardRecovered() {
    this.set({ recovered: undefined });
    this.keepLocally();
  }

  private schedule(delay: number) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush(), delay);
  }

  private whenOnline = () => {
    if (this.state.save === 'offline') this.schedule(0);
  };

  /** Sends what is unsent now, after the save in flight; resolves true once nothing is left unsent. */
  async flush(): Promise<boolean> {
    clearTimeout(this.timer);
    // What a widget still holds is part of what is on screen (fields/settling.ts).
    await fieldsSettled();
    while (this.inFlight) await this.inFlight;
    if (Object.keys(this.state.edits).length === 0) return true;
    if (this.state.save === 'conflict' || this.state.save === 'signed-out' || this.state.save === 'gone') return false;
    this.inFlight = this.send().finally(() => {
      this.inFlight = undefined;
    });
    await this.inFlight;
    // What was typed during the save goes next, at once: the edits are already late.
    if (this.state.save === 'pending') return this.flush();
    return Object.keys(this.state.edits).length === 0;
  }

  /** The sign-in dialog's "retry", the error message's "try again". */
  retry() {
    if (this.state.save === 'signed-out' || this.state.save === 'failed' || this.state.save === 'offline' || this.state.save === 'invalid') {
      this.set({ save: 'pending', message: undefined });
      void this.flush();
    }
  }

  private async send() {
    const sending = this.state.edits;
    const entry = this.state.entry;
    this.set({ save: 'saving', message: undefined });
    try {
      const saved = entry
        ? await dataOf(
            api.PUT('/_cms/api/content/{collection}/{id}', {
              params: { path: { collection: this.collection.slug, id: entry.id } },
              body: { data: bodyData(this.collection, sending, false), _rev: entry._rev },
            }),
            { onUnauthorized: 'throw' },
          )
        : await dataOf(
            api.POST('/_cms/api/content/{collection}', { params: { path: { collection: this.collection.slug } }, body: { data: bodyData(this.collection, sending, true) } }),
            { onUnauthorized: 'throw' },
          );
      this.accept(saved.item, sending);
      if (!entry) await this.becameCreated(saved.item);
    } catch (error) {
      await this.failed(error, sending);
    }
  }

  /** The server has `sent`: those edits are done unless changed again meanwhile. */
  private accept(item: Entry, sent: Values) {
    const edits = { ...this.state.edits };
    for (const [slug, value] of Object.entries(sent)) {
      if (edits[slug] === value) delete edits[slug];
    }
    const left = Object.keys(edits).length > 0;
    this.set({ entry: item, edits, issues: {}, save: left ? 'pending' : 'saved' });
    this.keepLocally();
  }

  private async becameCreated(item: Entry) {
    // The new entry's browser copy moves to the entry's own key.
    void writeLocalDraft(this.localKey, undefined);
    this.localKey = localDraftKey(this.collection.slug, item.id);
    this.keepLocally();
    this.onCreated?.(item);
  }

  private async failed(error: unknown, sending: Values): Promise<void> {
    if (!(error instanceof ApiError)) {
      // fetch itself failed: no connection. Everything stays here and in the browser.
      this.set({ save: 'offline', message: undefined });
      this.schedule(retryDelay);
      return;
    }
    if (error.status === 401) return this.set({ save: 'signed-out' });
    if (error.status === 404) return this.set({ save: 'gone' });
    if (error.status === 409 && error.code === 'CONFLICT') return this.conflicted(sending);
    if (error.status === 400) {
      const issues: Record<string, string> = {};
      const elsewhere: string[] = [];
      for (const issue of issuesOf(error)) {
        const slug = issue.path.startsWith('data.') ? issue.path.slice('data.'.length).split('.')[0]! : undefined;
        if (slug !== undefined && this.collection.fields.some((field) => field.slug === slug)) issues[slug] = issue.message;
        else elsewhere.push(issue.path ? `${issue.path}: ${issue.message}` : issue.message);
      }
      return this.set({ save: 'invalid', issues, message: elsewhere.length > 0 ? elsewhere.join('; ') : Object.keys(issues).length === 0 ? error.message : undefined });
    }
    // Another refusal (a duplicate slug, a server error): named, and tried again later.
    this.set({ save: 'failed', message: `${error.code}: ${error.message}` });
    if (error.status >= 500) this.schedule(retryDelay * 3);
  }

  /**
   * Someone saved first. Their version is read; the fields both changed go to the dialog; the rest
   * merge by themselves (their fields taken, the edits kept) and the save goes again on their `_rev`.
   */
  private async conflicted(sending: Values): Promise<void> {
    const entry = this.state.entry!;
    let theirs: Entry;
    try {
      theirs = (await dataOf(api.GET('/_cms/api/content/{collection}/{id}', { params: { path: { collection: this.collection.slug, id: entry.id } } }), { onUnauthorized: 'throw' })).item;
    } catch (error) {
      return this.failed(error, sending);
    }
    const fields: ConflictField[] = [];
    for (const [slug, mine] of Object.entries(this.state.edits)) {
      if (!sameValue(theirs.data[slug], entry.data[slug]) && !sameValue(theirs.data[slug], mine)) fields.push({ slug, theirs: theirs.data[slug], mine });
    }
    if (fields.length === 0) {
      this.set({ entry: theirs, save: 'pending' });
      return;
    }
    this.set({ save: 'conflict', conflict: { theirs, fields } });
  }

  /** The conflict dialog's answer: per field, the value kept (theirs, mine, or both joined). Then saved on their version. */
  resolveConflict(chosen: Record<string, unknown>) {
    const conflict = this.state.conflict;
    if (!conflict) return;
    const edits = { ...this.state.edits };
    for (const { slug } of conflict.fields) {
      const value = chosen[slug];
      if (sameValue(value, conflict.theirs.data[slug])) delete edits[slug];
      else edits[slug] = value ?? null;
    }
    this.set({ entry: conflict.theirs, edits, conflict: undefined, save: 'pending' });
    this.keepLocally();
    void this.flush();
  }

  /** After the entry was deleted elsewhere: everything typed, over the last version seen, as a new entry. */
  async saveAsNew() {
    const values = this.values();
    this.state = { ...this.state, entry: undefined, edits: values, save: 'pending', trashed: false };
    void writeLocalDraft(this.localKey, undefined);
    this.localKey = localDraftKey(this.collection.slug, undefined);
    this.keepLocally();
    await this.flush();
  }

  /**
   * The entry's byline credits, in order (the sidebar's bylines panel): saved after the edits, with
   * the `_rev` the session holds, and the answer becomes the session's entry, so the next autosave
   * goes on from it instead of meeting its own change as a conflict. Answers the entry, or undefined
   * when it failed (the message says why).
   */
  async credit(bylines: string[]): Promise<Entry | undefined> {
    this.set({ busy: 'credit', message: undefined });
    try {
      if (!(await this.flush())) return undefined;
      const entry = this.state.entry;
      if (!entry) return undefined;
      const { item } = await dataOf(
        api.PUT('/_cms/api/content/{collection}/{id}', { params: { path: { collection: this.collection.slug, id: entry.id } }, body: { bylines, _rev: entry._rev } }),
        { onUnauthorized: 'throw' },
      );
      this.set({ entry: item });
      return item;
    } catch (error) {
      this.set({ message: error instanceof Error ? error.message : String(error) });
      return undefined;
    } finally {
      this.set({ busy: undefined });
    }
  }

  /**
   * A life-cycle action, after the edits are saved (publishing what is on screen, not what was
   * saved before). Answers the entry it leads to (the copy, for duplicate), 'deleted', or undefined
   * when it failed (the message says why).
   */
  async act(action: Action): Promise<Entry | 'deleted' | undefined> {
    const name = typeof action === 'string' ? action : 'schedule';
    this.set({ busy: name, message: undefined });
    try {
      if (!this.state.trashed && !(await this.flush())) return undefined;
      const entry = this.state.entry;
      if (!entry) return undefined;
      const path = { collection: this.collection.slug, id: entry.id };
      const options = { onUnauthorized: 'throw' } as const;
      switch (action) {
        case 'publish':
        case 'unpublish':
        case 'discard-draft':
        case 'restore': {
          const routes = {
            publish: '/_cms/api/content/{collection}/{id}/publish',
            unpublish: '/_cms/api/content/{collection}/{id}/unpublish',
            'discard-draft': '/_cms/api/content/{collection}/{id}/discard-draft',
            restore: '/_cms/api/content/{collection}/{id}/restore',
          } as const;
          const { item } = await dataOf(api.POST(routes[action], { params: { path }, body: {} }), options);
          this.set({ entry: item, trashed: false });
          return item;
        }
        case 'unschedule': {
          const { item } = await dataOf(api.DELETE('/_cms/api/content/{collection}/{id}/schedule', { params: { path }, body: {} }), options);
          this.set({ entry: item });
          return item;
        }
        case 'trash':
          await dataOf(api.DELETE('/_cms/api/content/{collection}/{id}', { params: { path }, body: {} }), options);
          this.set({ trashed: true });
          return entry;
        case 'delete':
          await dataOf(api.DELETE('/_cms/api/content/{collection}/{id}/permanent', { params: { path }, body: {} }), options);
          void writeLocalDraft(this.localKey, undefined);
          return 'deleted';
        case 'duplicate':
          return (await dataOf(api.POST('/_cms/api/content/{collection}/{id}/duplicate', { params: { path }, body: {} }), options)).item;
        default: {
          const { item } = await dataOf(api.POST('/_cms/api/content/{collection}/{id}/schedule', { params: { path }, body: { scheduledAt: action.schedule } }), options);
          this.set({ entry: item });
          return item;
        }
      }
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) this.set({ save: 'signed-out' });
      const issue = issuesOf(error)[0];
      this.set({ message: issue ? `${issue.path}: ${issue.message}` : error instanceof Error ? error.message : String(error) });
      return undefined;
    } finally {
      this.set({ busy: undefined });
    }
  }
}
