import os from 'node:os';

/** The niceness of a copy of the living site: below the server's, so its requests go first. */
const copyNiceness = 10;

/**
 * `folio export`, `folio move` and `folio backup` copy a site while its server answers on the same
 * machine (docs/decisions/0061). Both want every core the machine has; at a lower CPU priority the
 * copy takes what the server leaves, so requests keep their latency and the copy still runs at full
 * speed on an idle machine. Only ever raised: an operator who started the copy nicer keeps it so.
 */
export function yieldToServer(): void {
  try {
    if (os.getPriority() < copyNiceness) os.setPriority(copyNiceness);
  } catch {
    // A platform or sandbox that refuses it: the copy runs at the priority it was started with.
  }
}
