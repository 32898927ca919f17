import { useEditor, type PortableTextObject } from '@portabletext/editor';
import { useState } from 'react';
import { Input, Label, TextArea, TextField } from 'react-aria-components';
import { useT } from '../i18n/i18n';
import { FormDialog } from './FormDialog';
import { codeType } from './schema';

/**
 * Writes a code block (Folio's `code`: `code` and an optional `language`, src/import/convert/elements.ts),
 * new or existing. Code is text exactly as written, so it is edited as plain text in a text area
 * rather than as rich text; only the two fields change, anything else the block holds stays.
 */
export function CodeDialog({ block, onClose }: { block?: PortableTextObject; onClose: () => void }) {
  const t = useT();
  const editor = useEditor();
  const [code, setCode] = useState(typeof block?.code === 'string' ? block.code : '');
  const [language, setLanguage] = useState(typeof block?.language === 'string' ? block.language : '');

  const save = () => {
    const lang = language.trim();
    if (block) {
      editor.send({ type: 'block.set', at: [{ _key: block._key }], props: { code, ...(lang ? { language: lang } : {}) } });
      if (!lang && block.language !== undefined) editor.send({ type: 'block.unset', at: [{ _key: block._key }], props: ['language'] });
    } else {
      editor.send({ type: 'insert.block object', placement: 'auto', blockObject: { name: codeType, value: { code, ...(lang ? { language: lang } : {}) } } });
    }
    onClose();
  };
  return (
    <FormDialog title={block ? t('pt.code.editTitle') : t('pt.code.addTitle')} isOpen onClose={onClose} onSubmit={save} submitLabel={block ? t('pt.save') : t('pt.insert')}>
      <TextField className="pt-field" value={code} onChange={setCode} autoFocus>
        <Label>{t('pt.code.code')}</Label>
        <TextArea className="pt-code-input" rows={10} spellCheck={false} />
      </TextField>
      <TextField className="pt-field" value={language} onChange={setLanguage}>
        <Label>{t('pt.code.language')}</Label>
        <Input spellCheck={false} />
      </TextField>
    </FormDialog>
  );
}
