import type { z } from 'zod';
import type { LoadedCollection } from '../../schema/store.ts';
import { SeoInput } from '../../seo/schemas.ts';
import { hasSeo, mergeSeo, seoColumn } from '../../seo/values.ts';
import { pluginKeys, type SeoMember } from '../sources/seo-keys.ts';
import type { NormalizedItem } from '../sources/types.ts';

/**
 * Yoast SEO and Rank Math meta as an entry's SEO values (docs/decisions/0059-seo-fields.md). The
 * focus keyword has no SEO member: it stays in the entry's meta, as the other plugin keys do when
 * the target collection has no SEO values.
 */

/**
 * Variables that name the site or the page number: the site's own title and separator (settings
 * `seo.titleSeparator`) stand for them, so they are dropped with the separator text around them.
 */
const siteVariables = new Set(['sep', 'sitename', 'sitedesc', 'page', 'pagenumber', 'pagetotal', 'currentyear', 'currentmonth', 'currentday', 'currentdate']);

/** Yoast writes `%%title%%`, Rank Math `%title%`. */
const variable = /%%([a-z_]+)%%|%([a-z_]+)%/g;
const edgeSeparators = /^[\s\-–—|·•:»«~/]+|[\s\-–—|·•:»«~/]+$/g;

/**
 * A title or description template with the item's own variables resolved (title, excerpt) and the
 * site's dropped; undefined when nothing of the item's own is left, or when it only says the item's
 * title again (the plugin's default, which the site's pages give anyway).
 */
function resolveTemplate(text: string, item: NormalizedItem, unknown: Set<string>): string | undefined {
  const resolved = text
    .replace(variable, (_, yoast: string | undefined, rankMath: string | undefined) => {
      const name = (yoast ?? rankMath)!;
      if (name === 'title') return item.title;
      if (name === 'excerpt' || name === 'excerpt_only') return item.excerpt ?? '';
      if (!siteVariables.has(name)) unknown.add(name);
      return ' ';
    })
    .replace(/\s+/g, ' ')
    .replace(edgeSeparators, '');
  return resolved === '' || resolved === item.title ? undefined : resolved;
}

function firstText(value: unknown): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' && first.trim() !== '' ? first.trim() : undefined;
}

/** Yoast's `1`, or Rank Math's robots list (PHP-serialized in the export, decoded by then) holding `noindex`. */
function noIndexOf(value: unknown): boolean | undefined {
  if (value === '1') return true;
  const list = Array.isArray(value) ? value : typeof value === 'object' && value !== null ? Object.values(value) : [];
  return list.includes('noindex') ? true : undefined;
}

/** The first plugin value of a member the item carries. */
function pluginValue(item: NormalizedItem, member: SeoMember): unknown {
  const key = pluginKeys[member].find((candidate) => item.meta[candidate] !== undefined);
  return key === undefined ? undefined : item.meta[key];
}

/**
 * The entry's `_seo` column from the item's plugin meta, with a warning for each value that could
 * not be kept (too long, not an http(s) URL, a template variable left out). Nothing for a
 * collection without SEO values.
 */
export function importedSeo(collection: LoadedCollection, item: NormalizedItem): { column: string | null; warnings: string[] } {
  if (!hasSeo(collection)) return { column: null, warnings: [] };
  const unknown = new Set<string>();
  const wanted: Record<string, unknown> = {};
  for (const member of ['title', 'description'] as const) {
    const text = firstText(pluginValue(item, member));
    if (text !== undefined) wanted[member] = resolveTemplate(text, item, unknown);
  }
  wanted.canonical = firstText(pluginValue(item, 'canonical'));
  wanted.image = firstText(pluginValue(item, 'image'));
  wanted.noIndex = noIndexOf(pluginValue(item, 'noIndex'));
  const warnings = [...unknown].map((name) => `SEO template variable %%${name}%% is not resolved on import; it was left out`);
  const given: z.output<typeof SeoInput> = {};
  for (const [member, value] of Object.entries(wanted)) {
    if (value === undefined) continue;
    const checked = SeoInput.shape[member as SeoMember].safeParse(value);
    if (checked.success) Object.assign(given, { [member]: checked.data });
    else warnings.push(`SEO ${member} not imported: ${checked.error.issues[0]?.message ?? 'invalid'}`);
  }
  const merged = mergeSeo(collection, {}, given);
  warnings.push(...merged.issues.map((issue) => `SEO image not imported: ${issue.message}`));
  return { column: seoColumn(merged.seo), warnings };
}
