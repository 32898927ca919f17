/**
 * Calls made while a batch is running are run together in the next batch (group commit): the first
 * call starts at once, and however many arrive while a batch works share one run of `runBatch`, so
 * a burst costs a few runs rather than one each. `runBatch` answers each item, in order; if it
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
      if (!running) void drain();
    });
}
