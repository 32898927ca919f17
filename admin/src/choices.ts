/** A multiple choice after one box is ticked or unticked: what is chosen, in the order of `all`. */
export function toggled<T>(all: readonly T[], chosen: readonly T[], item: T, on: boolean): T[] {
  return all.filter((candidate) => (candidate === item ? on : chosen.includes(candidate)));
}
