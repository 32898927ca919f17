// Plain JavaScript with no import: it runs before anything is loaded, on any Node.

/**
 * What the server's process needs that only its start can give it, since none can be changed once
 * Node runs:
 * - `--experimental-async-context-frame` where Node takes it (22; from 24 it is the default and the
 *   flag is refused). The server finds the request an escaped error belongs to through an
 *   AsyncLocalStorage (src/http/escaped-errors.ts, docs/decisions/0035); Node 22 carries its context
 *   with promise hooks, a JavaScript call for every promise of every request, and with the flag
 *   V8's own frames carry it at no cost.
 * - `--expose-gc`: while a body streams in, the server runs a minor collection every few megabytes,
 *   so the buffers already written are freed then rather than piling up until V8's next one
 *   (src/http/streamed-memory.ts, docs/decisions/0069). bin/folio.mjs's first line and `npm start`
 *   pass it too, for where the process cannot replace itself.
 * - `MALLOC_TRIM_THRESHOLD_`, read by glibc's allocator as the process starts: a fixed threshold
 *   gives the memory an image rendering freed back to the system instead of keeping it for later,
 *   480 MB against 214 MB at the peak of a burst of renderings (docs/decisions/0033). A value the
 *   operator set is kept; other C libraries ignore it.
 */
const frameFlag = '--experimental-async-context-frame';
const gcFlag = '--expose-gc';
const trimVariable = 'MALLOC_TRIM_THRESHOLD_';
const trimThreshold = String(128 * 1024);

/**
 * Replaces this process with one that has what the server needs, when it lacks some: same process
 * id, same standard streams, same signals, so a service manager or a test sees no difference. Where
 * the process cannot replace itself (no execve: Windows, Node before 22.15) the server runs as it is.
 */
export function becomeServerProcess() {
  const given = (flag) => process.execArgv.includes(flag) || (process.env.NODE_OPTIONS ?? '').includes(flag);
  const addFlags = [frameFlag, gcFlag].filter((flag) => process.allowedNodeEnvironmentFlags.has(flag) && !given(flag));
  const addTrim = process.platform === 'linux' && process.env[trimVariable] === undefined;
  if ((addFlags.length === 0 && !addTrim) || typeof process.execve !== 'function') return;
  const execArgv = [...process.execArgv, ...addFlags];
  const env = addTrim ? { ...process.env, [trimVariable]: trimThreshold } : process.env;
  process.execve(process.execPath, [process.execPath, ...execArgv, ...process.argv.slice(1)], env);
}
