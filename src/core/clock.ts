/** Time comes from a clock in the operation context so tests can move it instead of sleeping. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** Every timestamp on the wire and in storage: ISO 8601 UTC with milliseconds. */
export function isoNow(clock: Clock): string {
  return clock.now().toISOString();
}
