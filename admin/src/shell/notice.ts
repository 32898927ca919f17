/** What a screen last said: done (announced politely) or gone wrong (announced at once). */
export type Notice = { kind: 'done' | 'failed'; text: string } | undefined;

/** An error's words, as a screen shows them. */
export const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
