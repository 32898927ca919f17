import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { settingsQuery } from './api/queries';

/** The site's locales (settings), as BCP 47 tags: the same array until the settings change. */
export function useSiteLocales(): string[] {
  const locales: unknown = useQuery(settingsQuery).data?.locales;
  return useMemo(() => (Array.isArray(locales) ? locales.filter((locale): locale is string => typeof locale === 'string') : []), [locales]);
}

/** Whether the site is in more than one language: translations and the locale filter show only then. */
export function useMultilingual(): boolean {
  return useSiteLocales().length > 1;
}
