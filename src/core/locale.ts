import { z } from 'zod';

/** The canonical form of a BCP 47 tag (`EN-us` → `en-US`), or undefined when it is not one. */
function canonicalLocale(value: string): string | undefined {
  try {
    const [canonical] = Intl.getCanonicalLocales(value);
    return canonical;
  } catch {
    return undefined;
  }
}

/**
 * A BCP 47 language tag, in canonical form: tags are case-insensitive, so `EN` and `en` must be the
 * same locale wherever locales are stored or compared (settings, entries, lookups).
 */
export const LocaleTag = z
  .string()
  .min(1)
  .max(35)
  .transform((value, ctx) => {
    const canonical = canonicalLocale(value);
    if (canonical === undefined) {
      ctx.addIssue({ code: 'custom', message: 'Must be a BCP 47 language tag such as en or pt-BR' });
      return z.NEVER;
    }
    return canonical;
  });
