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

/** Stems a language's stemmer keeps (about 100 bytes each): more words than a site's pages of results repeat. */
const rememberedStems = 10_000;

/**
 * The stemmer, remembering its stems across searches: a stem costs about 4 µs and 700 bytes of
 * garbage (Porter's rules are regular expressions), and every page of results stems the same
 * common words again. The oldest stem goes first when it is full.
 */
function remembering(stem: Stemmer): Stemmer {
  const stems = new Map<string, string>();
  return (word) => {
    let stemmed = stems.get(word);
    if (stemmed === undefined) {
      stemmed = stem(word);
      if (stems.size >= rememberedStems) stems.delete(stems.keys().next().value!);
      stems.set(word, stemmed);
    }
    return stemmed;
  };
}

/** The stemmer of a language; undefined for one without (its words are then compared whole). */
export function loadStemmer(language: string | undefined): Promise<Stemmer | undefined> {
  if (language === undefined) return Promise.resolve(undefined);
  let stemmer = loaded.get(language);
  if (!stemmer) {
    const load = loaders[language];
    stemmer = load ? load().then((module) => remembering(module.stemmer)) : Promise.resolve(undefined);
    loaded.set(language, stemmer);
  }
  return stemmer;
}
