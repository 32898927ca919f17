import type { FileLine, MediaLine, MediaResult } from './import-media.ts';

/** A media import as the route runs it: streamed line by line, or only its result. */
export interface MediaImportRun {
  stream: boolean;
  run: (onLine: (line: FileLine) => void) => Promise<MediaResult>;
}

/**
 * The run's lines as they come, then its result: the import runs at its own pace and its lines wait
 * here for the reader (they are small, one per file).
 */
export async function* mediaLines(media: MediaImportRun): AsyncGenerator<MediaLine> {
  const waiting: FileLine[] = [];
  let wake: (() => void) | undefined;
  let outcome: { result: MediaResult } | { error: unknown } | undefined;
  void media
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
