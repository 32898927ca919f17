import type { BlockObjectRenderProps } from '@portabletext/editor';
import { Button } from 'react-aria-components';
import { useT } from '../../i18n/i18n';
import { useEditorDialogs } from '../dialogs';

/** A code block as it reads, with its language, and a button to edit it in the code dialog. */
export function CodeCard({ attributes, children, node, selected }: BlockObjectRenderProps) {
  const t = useT();
  const { open } = useEditorDialogs();
  const language = typeof node.language === 'string' ? node.language : '';
  return (
    <div {...attributes} className="pt-object">
      {children}
      <div contentEditable={false} className="pt-card pt-code-card" data-selected={selected || undefined} role="group" aria-label={language ? t('pt.code.labelWith', { language }) : t('pt.code.label')}>
        <div className="pt-card-head">
          <span className="pt-card-type">{language ? t('pt.code.labelWith', { language }) : t('pt.code.label')}</span>
          <Button onPress={() => open({ kind: 'code', block: node })}>{t('pt.code.edit')}</Button>
        </div>
        <pre>
          <code>{typeof node.code === 'string' ? node.code : ''}</code>
        </pre>
      </div>
    </div>
  );
}
