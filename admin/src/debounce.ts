import { useEffect, useState } from 'react';

/**
 * `value` once it has stopped changing for `delay` ms: what a box that asks the server as one types
 * sends, so a word typed quickly is one request, not one per key.
 */
export function useDebouncedValue<T>(value: T, delay: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}
