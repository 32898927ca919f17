import type { convertPostContent, ConvertOptions } from '../convert/index.ts';
import type { NormalizedItem } from './types.ts';

/**
 * What the WordPress sources (an export file, WordPress.com's API) share: which post types are not
 * content, what kind a file is, converting an item's content.
 */

/** Post types that are not content: what they are instead, for the analysis' "skipped" list. */
export const notContent: Record<string, string> = {
  revision: 'revisions are not imported (the latest version of each post is)',
  customize_changeset: 'Customizer drafts are theme settings, not content',
  custom_css: 'custom CSS belongs to the theme',
  oembed_cache: 'cached embeds are rebuilt from the content',
  user_request: 'privacy requests are not content',
  wp_global_styles: 'global styles belong to the theme',
  wp_template: 'block templates belong to the theme',
  wp_template_part: 'block template parts belong to the theme',
  wp_navigation: 'block navigation is imported through the classic menus (nav_menu_item)',
  wp_font_family: 'fonts belong to the theme',
  wp_font_face: 'fonts belong to the theme',
};

const imageExtensions = /\.(?:jpe?g|png|gif|webp|avif|svg|bmp|tiff?|heic)$/i;
const videoExtensions = /\.(?:mp4|m4v|mov|webm|ogv|avi|wmv|mkv|3gp)$/i;
const audioExtensions = /\.(?:mp3|m4a|ogg|oga|wav|flac|aac|wma)$/i;

/** An attachment's kind for the analysis: by its MIME type where the source gives one, else by its file extension. */
export function attachmentKind(url: string, mimeType = ''): 'images' | 'video' | 'audio' | 'other' {
  if (/^(image|video|audio)\//.test(mimeType)) return mimeType.startsWith('image/') ? 'images' : mimeType.startsWith('video/') ? 'video' : 'audio';
  const path = url.split(/[?#]/)[0] ?? '';
  if (imageExtensions.test(path)) return 'images';
  if (videoExtensions.test(path)) return 'video';
  if (audioExtensions.test(path)) return 'audio';
  return 'other';
}

/** The converter, loaded by a source on its first import (not with every process that registers the sources: the CLI's start). */
export type Convert = typeof convertPostContent;

/** The item with its content converted, or, when it cannot be, marked failed with its original content (import.md §2 rule 7). */
export function withContent(item: NormalizedItem, html: string, options: ConvertOptions, convert: Convert): NormalizedItem {
  try {
    const converted = convert(html, options);
    item.content = converted.blocks;
    item.warnings.push(...converted.warnings);
  } catch (error) {
    item.failure = { cause: `The content could not be converted: ${(error as Error).message}`, original: html };
  }
  return item;
}
