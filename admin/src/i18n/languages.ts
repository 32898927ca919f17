import { en } from './en';
import { i18n } from './i18n';

/** The panel's languages, each named as it names itself. English is built in; the others load when chosen. */
export const languages = [
  { code: 'en', name: 'English' },
  { code: 'de', name: 'Deutsch' },
] as const;

export type Language = (typeof languages)[number]['code'];

/** Where this browser keeps the language its person chose; absent, the browser's own preference rules. */
const storageKey = 'folio.language';

const isLanguage = (code: string | null | undefined): code is Language => languages.some((language) => language.code === code);

/** The language the person chose on this browser, if they chose one. */
export function chosenLanguage(): Language | undefined {
  const stored = localStorage.getItem(storageKey);
  return isLanguage(stored) ? stored : undefined;
}

/** The first of the browser's languages the panel speaks (de-AT speaks German), else English. */
export function browserLanguage(): Language {
  for (const tag of navigator.languages) {
    const base = tag.split('-')[0]!.toLowerCase();
    if (isLanguage(base)) return base;
  }
  return 'en';
}

async function messagesOf(language: Language): Promise<Record<string, string>> {
  if (language === 'de') return (await import('./de')).de;
  return en;
}

/** Switches the panel to a language: its messages loaded, the page's `lang` set; every string re-renders. */
export async function activateLanguage(language: Language): Promise<void> {
  i18n.loadAndActivate({ locale: language, messages: await messagesOf(language) });
  document.documentElement.lang = language;
}

/** The person's choice on this browser (undefined: follow the browser), kept and applied. */
export async function chooseLanguage(language: Language | undefined): Promise<void> {
  if (language === undefined) localStorage.removeItem(storageKey);
  else localStorage.setItem(storageKey, language);
  await activateLanguage(language ?? browserLanguage());
}
