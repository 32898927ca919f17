/**
 * RFC 7240's `Prefer` request header: the preferences a client states, by name (lower case), without
 * their values or parameters. Several headers, or one with commas, list several; unknown ones are
 * ignored, as the RFC says a server may.
 */
export function preferences(header: string | readonly string[] | undefined): Set<string> {
  const values = header === undefined ? [] : typeof header === 'string' ? [header] : header;
  const names = new Set<string>();
  for (const value of values) {
    for (const preference of value.split(',')) {
      const name = preference.split(/[=;]/)[0]!.trim().toLowerCase();
      if (name !== '') names.add(name);
    }
  }
  return names;
}

/** The preference of a client that would rather not wait for the work its request starts (RFC 7240 §4.1). */
export const respondAsync = 'respond-async';
