import { useEditor, type PortableTextObject } from '@portabletext/editor';
import { useState } from 'react';
import { Input, Label, Text, TextField } from 'react-aria-components';
import { useT } from '../i18n/i18n';
import { FormDialog } from './FormDialog';

/** An image block's alt text; empty marks the image as decorative. Only `alt` changes. */
export function AltDialog({ block, onClose }: { block: PortableTextObject; onClose: () => void }) {
  const t = useT();
  const editor = useEditor();
  const [alt, setAlt] = useState(typeof block.alt === 'string' ? block.alt : '');
  const save = () => {
    editor.send({ type: 'block.set', at: [{ _key: block._key }], props: { alt } });
    onClose();
  };
  return (
    <FormDialog title={t('pt.image.altTitle')} isOpen onClose={onClose} onSubmit={save} submitLabel={t('pt.save')}>
      <TextField className="pt-field" value={alt} onChange={setAlt} autoFocus>
        <Label>{t('pt.image.alt')}</Label>
        <Input />
        <Text slot="description">{t('pt.image.altHelp')}</Text>
      </TextField>
    </FormDialog>
  );
}
