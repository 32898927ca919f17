/**
 * Work an operation starts that a route answers either whole (its result) or as NDJSON lines as it
 * goes, then its result: a media import's files, a search rebuild's batches.
 */
export interface StreamedRun<Line, Result> {
  stream: boolean;
  run: (onLine: (line: Line) => void) => Promise<Result>;
}

/**
 * The run's lines as they come, then its result. The work goes at its own pace and its lines wait
 * here for the reader (they are small); a reader that leaves does not stop it.
 */
export async function* runLines<Line, Result>(work: StreamedRun<Line, Result>): AsyncGenerator<Line | Result> {
  const waiting: Line[] = [];
  let wake: (() => void) | undefined;
  let outcome: { result: Result } | { error: unknown } | undefined;
  void work
    .run((line) => {
      waiting.push(line);
      wake?.();
    })
    .then(
      (result) => (outcome = { result }),
      (error: unknown) => (outcome = { error }),
    )
    .finally(() => wake?.());
  for (;;) {
    while (waiting.length > 0) yield waiting.shift()!;
    if (outcome) {
      if ('error' in outcome) throw outcome.error;
      yield outcome.result;
      return;
    }
    await new Promise<void>((resolve) => (wake = resolve));
    wake = undefined;
  }
}

/** The whole answer of a run that was not asked to stream; undefined when it was. */
export const wholeResult = async <Line, Result>(work: StreamedRun<Line, Result>): Promise<Result | undefined> => (work.stream ? undefined : work.run(() => {}));
