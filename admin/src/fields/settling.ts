/**
 * Field widgets that hand their value to the form some time after a change say so here, so that an
 * action on what is on screen waits for it. The Portable Text editor hands over its typing about
 * 250 ms after the last key (its own batching): without this, Publish pressed sooner published the
 * entry without the last words typed, which then stayed behind as a draft.
 */
const unsettled = new Set<object>();
let waiting: (() => void)[] = [];

/** `owner` has a change the form has not heard of yet. */
export function fieldUnsettled(owner: object): void {
  unsettled.add(owner);
}

/** `owner` has handed over everything (or is gone). */
export function fieldSettled(owner: object): void {
  if (!unsettled.delete(owner) || unsettled.size > 0) return;
  const resolved = waiting;
  waiting = [];
  for (const resolve of resolved) resolve();
}

/**
 * A widget that never hands over must not hold the form for ever: the editor flushes its batch within
 * a second of a change, so past this the form goes on with what it has.
 */
const longestWaitMs = 2000;

/** Resolves once every field has handed its changes to the form. */
export function fieldsSettled(): Promise<void> {
  if (unsettled.size === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, longestWaitMs);
    waiting.push(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
