/** An object as JSON.parse makes them: not null, not an array, of no class (its prototype Object's or none). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** A plain object whose own keys are all among `keys` (each may be missing). */
export function hasOnlyKeys(value: unknown, keys: readonly string[]): value is Record<string, unknown> {
  if (!isPlainObject(value)) return false;
  for (const key in value) if (!keys.includes(key)) return false;
  return true;
}
