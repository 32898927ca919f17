import { monotonicFactory } from 'ulid';

/** ULIDs: 26 upper-case Crockford characters, monotonic within this process (DECISIONS §1). */
export const newId: () => string = monotonicFactory();
