import { z } from 'zod';
import { normalizePortableText } from './portable-text.ts';
import type { PortableTextBlock } from './value-types.ts';

/**
 * Rich text outside entries (sections, content widgets) as a zod schema, so a request body declares it
 * once for validation and the OpenAPI document. It takes what a `portableText` field takes (DECISIONS
 * §3): Portable Text blocks, checked and completed with keys, or a Markdown string, converted.
 */
export const PortableTextInput = z
  .union([z.string(), z.array(z.unknown())], { error: 'Must be Portable Text (an array of blocks) or a Markdown string' })
  .transform((value, ctx): PortableTextBlock[] => {
    const normalized = normalizePortableText(value);
    if (normalized.ok) return normalized.blocks;
    // Each problem at its own place under the field (`content.2.children.0.text`).
    for (const issue of normalized.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path === '' ? [] : issue.path.split('.') });
    return z.NEVER;
  })
  .describe('Portable Text blocks, or a Markdown string that is converted to them');

/** Stored rich text as responses carry it. */
export const PortableTextBlocks = z.array(z.looseObject({ _type: z.string(), _key: z.string() })).describe('Portable Text blocks');
