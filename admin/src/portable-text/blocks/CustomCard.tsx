import type { BlockObjectRenderProps, InlineObjectRenderProps, PortableTextObject } from '@portabletext/editor';
import { useT } from '../../i18n/i18n';

/** A few words that say which one it is: its address, or the start of the text it holds. */
function summaryOf(node: PortableTextObject): string {
  for (const field of ['url', 'href', 'src', 'title', 'name']) {
    const value = node[field];
    if (typeof value === 'string' && value !== '') return value;
  }
  const text = JSON.stringify(node).match(/"text":"((?:[^"\\]|\\.)*)"/);
  return text?.[1] ? text[1].slice(0, 120) : '';
}

/**
 * A block the editor has no editor for (an import's embed, table, gallery, quote with citation, a
 * client's own type): shown as a labelled card and never changed. It can be moved or deleted like
 * any block; its content is saved exactly as it came.
 */
export function CustomCard({ attributes, children, node, selected }: BlockObjectRenderProps) {
  const t = useT();
  const summary = summaryOf(node);
  return (
    <div {...attributes} className="pt-object">
      {children}
      <div contentEditable={false} className="pt-card pt-custom-card" data-selected={selected || undefined} role="group" aria-label={t('pt.custom.label', { type: node._type })}>
        <span className="pt-card-type">{t('pt.custom.label', { type: node._type })}</span>
        {summary ? <span className="pt-card-summary">{summary}</span> : null}
        <span className="pt-card-note">{t('pt.custom.kept')}</span>
      </div>
    </div>
  );
}

/** An object inside the text (a client's own inline type): a chip naming it, kept as it came. */
export function InlineCard({ attributes, children, node }: InlineObjectRenderProps) {
  const t = useT();
  return (
    <span {...attributes} className="pt-inline-object">
      {children}
      <span contentEditable={false} className="pt-chip">
        {t('pt.custom.inline', { type: node._type })}
      </span>
    </span>
  );
}
