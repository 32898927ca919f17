import { monotonicFactory } from 'ulid';

/** ULIDs: 26 upper-case Crockford characters, monotonic within this process (DECISIONS §1). */
export const newId: () => string = monotonicFactory();

const ulidPattern = /^[0-9A-HJKMNP-TV-Z]{26}$/;

export function isUlid(value: string): boolean {
  return ulidPattern.test(value);
}
