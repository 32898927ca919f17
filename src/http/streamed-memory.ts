/**
 * Memory of the bodies that stream through the server (uploads, direct uploads, archives), given back
 * as it goes rather than when V8 next collects (docs/decisions/0069). A body arrives as 64 KiB
 * buffers, each dead once written; but its memory is freed only by the collection that finds the small
 * object owning it dead, and a streamed chunk leaves little of that garbage behind: a 50 MiB upload
 * went through tens of megabytes of dead buffers between collections, and a larger young generation
 * (the request path's gain, decisions/0054) let more pile up. So every `collectEvery` bytes streamed,
 * across all bodies, the server runs a minor collection itself: under 1 ms for what a request path
 * keeps alive, where the buffers it frees are megabytes.
 *
 * The collection is V8's `gc`, which only a process started with `--expose-gc` has: the server's
 * process gives itself the flag (bin/server-process.mjs). Anywhere else (a test's in-process app, a
 * server started on an OS without execve) the bytes are left to V8's own timing.
 */
const collectEvery = 4 * 1024 * 1024;

type Collect = (options: { type: 'minor' }) => void;
const collect = (globalThis as { gc?: Collect }).gc;

let sinceCollection = 0;

/** Counts `bytes` of a body just passed on; a minor collection once `collectEvery` have passed since the last. */
export function streamedThrough(bytes: number): void {
  if (collect === undefined) return;
  sinceCollection += bytes;
  if (sinceCollection < collectEvery) return;
  sinceCollection = 0;
  collect({ type: 'minor' });
}
