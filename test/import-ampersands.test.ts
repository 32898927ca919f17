import { describe, expect, it } from 'vitest';
import { AmpersandCheck } from '../src/import/wxr/ampersands.ts';

/** The text `check` lets through for `chunks`, up to a bare `&` if one comes, and whether one came. */
function through(chunks: string[]): { text: string; bareAmpersand: boolean } {
  const check = new AmpersandCheck();
  let text = '';
  for (const chunk of chunks) {
    const next = check.next(chunk);
    text += next.text;
    if (next.bareAmpersand) return { text, bareAmpersand: true };
  }
  return { text: text + check.end(), bareAmpersand: false };
}

/** Every way to cut `text` in two. */
const cuts = (text: string) => Array.from({ length: text.length + 1 }, (_, at) => [text.slice(0, at), text.slice(at)]);

const wellFormed = '<?xml version="1.0"?><rss a="x&amp;y"><title>R&amp;D &#38; &#x26; &lt;</title><!-- a & b --><c><![CDATA[if (a && b) ]]]]></c><?pi & ?></rss>';

/** issue 34: the bare `&` before the parser's later symptom. */
describe('WXR reader: finding a bare &', () => {
  it('lets every reference, and every & in CDATA, comments and processing instructions, through, however the text is cut', () => {
    for (const chunks of cuts(wellFormed)) expect(through(chunks), JSON.stringify(chunks)).toEqual({ text: wellFormed, bareAmpersand: false });
  });

  it('stops right before a bare &, however the text is cut', () => {
    const before = '<rss><title>R&amp;D <![CDATA[&]]> Tom ';
    const broken = `${before}& Jerry &amp; friends</title></rss>`;
    for (const chunks of cuts(broken)) expect(through(chunks), JSON.stringify(chunks)).toEqual({ text: before, bareAmpersand: true });
  });

  it('leaves an & cut short by the end of the text to the parser', () => {
    expect(through(['<rss>R&am'])).toEqual({ text: '<rss>R&am', bareAmpersand: false });
  });
});
