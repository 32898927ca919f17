/**
 * Memory of the bodies that stream through the server (uploads, direct uploads, archives), given back
 * as it goes rather than when V8 next collects (docs/decisions/0069). A body arrives as 64 KiB
 * buffers, each dead once written; but its memory is freed only by the collection that finds the small
 * object owning it dead, and a streamed chunk leaves little of that garbage behind: the young
 * generation rarely filled during a 50 MiB upload, and what collected the buffers was a full
 * collection that tens of megabytes of them set off. So every `collectEvery` bytes streamed, across
 * all bodies, the server runs a minor collection itself: under 1 ms for what a request path keeps
 * alive, where the buffers it frees are megabytes.
 *
 * The collection is V8's `gc`, which only a process started with `--expose-gc` has: bin/folio.mjs
 * passes it, and the server's process gives itself the flag when started without it
 * (bin/server-process.mjs). Anywhere else the bytes are left to V8.
 */
const collectEvery = 4 * 1024 * 1024;

type Collect = (options: { type: 'minor' }) => void;

let sinceCollection = 0;

/** Counts `bytes` of a body just passed on; a minor collection once `collectEvery` have passed since the last. */
export function streamedThrough(bytes: number): void {
  sinceCollection += bytes;
  if (sinceCollection < collectEvery) return;
  sinceCollection = 0;
  // Looked up when needed, not once at load: a test gives its in-process app one (test/streamed-memory.test.ts).
  (globalThis as { gc?: Collect }).gc?.({ type: 'minor' });
}
