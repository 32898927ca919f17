/**
 * Word stemmers for snippets (docs/decisions/0020): to mark "running" for the query "run", a
 * snippet compares stems the way the engine's index did. @orama/stemmers has the Snowball stemmers
 * PostgreSQL's configurations use, and its English one is Porter's original algorithm, which is
 * SQLite's `porter` tokenizer. Each language is loaded the first time a snippet needs it.
 */

export type Stemmer = (word: string) => string;

/** The languages @orama/stemmers has, by the name PostgreSQL's configurations and Folio use. */
const loaders: Record<string, () => Promise<{ stemmer: Stemmer }>> = {
  arabic: () => import('@orama/stemmers/arabic'),
  armenian: () => import('@orama/stemmers/armenian'),
  danish: () => import('@orama/stemmers/danish'),
  dutch: () => import('@orama/stemmers/dutch'),
  english: () => import('@orama/stemmers/english'),
  finnish: () => import('@orama/stemmers/finnish'),
  french: () => import('@orama/stemmers/french'),
  german: () => import('@orama/stemmers/german'),
  greek: () => import('@orama/stemmers/greek'),
  hungarian: () => import('@orama/stemmers/hungarian'),
  indonesian: () => import('@orama/stemmers/indonesian'),
  irish: () => import('@orama/stemmers/irish'),
  italian: () => import('@orama/stemmers/italian'),
  lithuanian: () => import('@orama/stemmers/lithuanian'),
  nepali: () => import('@orama/stemmers/nepali'),
  norwegian: () => import('@orama/stemmers/norwegian'),
  portuguese: () => import('@orama/stemmers/portuguese'),
  romanian: () => import('@orama/stemmers/romanian'),
  russian: () => import('@orama/stemmers/russian'),
  serbian: () => import('@orama/stemmers/serbian'),
  spanish: () => import('@orama/stemmers/spanish'),
  swedish: () => import('@orama/stemmers/swedish'),
  tamil: () => import('@orama/stemmers/tamil'),
  turkish: () => import('@orama/stemmers/turkish'),
};

const loaded = new Map<string, Promise<Stemmer | undefined>>();

/** The stemmer of a language; undefined for one without (its words are then compared whole). */
export function loadStemmer(language: string | undefined): Promise<Stemmer | undefined> {
  if (language === undefined) return Promise.resolve(undefined);
  let stemmer = loaded.get(language);
  if (!stemmer) {
    const load = loaders[language];
    stemmer = load ? load().then((module) => module.stemmer) : Promise.resolve(undefined);
    loaded.set(language, stemmer);
  }
  return stemmer;
}
