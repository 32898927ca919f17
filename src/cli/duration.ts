const unitMs = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const;

/**
 * `30d`, `12h`, `90m`, `2w`: a whole number and one unit. Stricter than general parsers on purpose:
 * a typo in a token's lifetime should fail, not turn into milliseconds.
 */
export function parseDuration(text: string): number | undefined {
  const match = /^(\d{1,6})([mhdw])$/.exec(text.trim());
  if (!match) return undefined;
  const amount = Number(match[1]);
  return amount > 0 ? amount * unitMs[match[2] as keyof typeof unitMs] : undefined;
}
