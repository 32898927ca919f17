/**
 * A schema slug (`^[a-z][a-z0-9_]*$`, at most 63) suggested from a label as it is typed: "Blog posts"
 * gives `blog_posts`, "Café menu" `cafe_menu`. Empty when the label has no letter to start with; the
 * person may always write their own.
 */
export function slugFrom(label: string): string {
  const words = label
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^[^a-z]+/, '')
    .replace(/_+$/, '');
  return words.slice(0, 63).replace(/_+$/, '');
}

/** The same with "-" between the words (`main-navigation`, `web-design`), as menu names and term slugs read in URLs and templates. */
export const hyphenatedSlugFrom = (label: string) => slugFrom(label).replace(/_/g, '-');
