/**
 * The meta keys of the SEO plugins an import reads (Yoast SEO, Rank Math), by the SEO member they
 * fill (import/job/seo.ts, docs/decisions/0059-seo-fields.md).
 */

export type SeoMember = 'title' | 'description' | 'canonical' | 'noIndex' | 'image';

/** Each plugin's key per member, in the order they are tried: Yoast first, as WordPress shows it when both are there. */
export const pluginKeys: Record<SeoMember, string[]> = {
  title: ['_yoast_wpseo_title', 'rank_math_title'],
  description: ['_yoast_wpseo_metadesc', 'rank_math_description'],
  canonical: ['_yoast_wpseo_canonical', 'rank_math_canonical_url'],
  noIndex: ['_yoast_wpseo_meta-robots-noindex', 'rank_math_robots'],
  image: ['_yoast_wpseo_opengraph-image', 'rank_math_facebook_image'],
};

const seoMetaKeys = new Set(Object.values(pluginKeys).flat());
const focusKeywordKeys = ['_yoast_wpseo_focuskw', 'rank_math_focus_keyword'];

/** Whether a meta key is one of the SEO plugins': items carrying one make their collection support `seo`. */
export function isSeoMetaKey(key: string): boolean {
  return seoMetaKeys.has(key) || focusKeywordKeys.includes(key);
}

/** The item's meta without the keys that became SEO values (the focus keyword stays). */
export function metaWithoutSeo(meta: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(meta).filter(([key]) => !seoMetaKeys.has(key)));
}
