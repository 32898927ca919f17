/**
 * Calls are run together (group commit): a batch starts once the event loop has handled what was
 * ready with the first call (setImmediate: every answer that came in on the same turn joins it), and
 * however many arrive while a batch works share the next run of `runBatch`, so a burst costs a few
 * runs rather than one each. Starting at once was not enough: a SQLite commit is over before the
 * next answer is read, so every batch held one. `runBatch` answers each item, in order; if it
 * throws, every call of that batch fails with the error.
 */
export function batched<Item, Result>(runBatch: (items: Item[]) => Promise<Result[]>): (item: Item) => Promise<Result> {
  let waiting: { item: Item; resolve: (result: Result) => void; reject: (error: unknown) => void }[] = [];
  let running = false;

  async function drain(): Promise<void> {
    running = true;
    while (waiting.length > 0) {
      const batch = waiting;
      waiting = [];
      try {
        const results = await runBatch(batch.map((call) => call.item));
        batch.forEach((call, index) => call.resolve(results[index]!));
      } catch (error) {
        for (const call of batch) call.reject(error);
      }
    }
    running = false;
  }

  return (item) =>
    new Promise<Result>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      if (!running) {
        running = true;
        setImmediate(() => void drain());
      }
    });
}
