/**
 * Where a WordPress taxonomy goes (DECISIONS §7): categories to `category`, tags to `tag`, custom
 * taxonomies keep their name (made a valid taxonomy name where WordPress allowed more).
 */
export function taxonomyTarget(name: string): string {
  if (name === 'post_tag') return 'tag';
  const cleaned = name.toLowerCase().replace(/[^a-z0-9_-]+/g, '_').replace(/^[^a-z]+/, '').slice(0, 63);
  return cleaned || 'taxonomy';
}

/** A label for a taxonomy Folio creates: `category` → Categories, `tag` → Tags, `genre` → Genre. */
export function taxonomyLabels(target: string): { label: string; labelSingular: string } {
  if (target === 'category') return { label: 'Categories', labelSingular: 'Category' };
  if (target === 'tag') return { label: 'Tags', labelSingular: 'Tag' };
  const words = target.replace(/[_-]+/g, ' ');
  const label = words.charAt(0).toUpperCase() + words.slice(1);
  return { label, labelSingular: label };
}
