import { useEditor, useEditorSelector } from '@portabletext/editor';
import { getActiveAnnotations, getFocusTextBlock } from '@portabletext/editor/selectors';
import { useState } from 'react';
import { Button, Input, Label, TextField } from 'react-aria-components';
import { useT } from '../i18n/i18n';
import { FormDialog } from './FormDialog';
import { linkType } from './schema';

/**
 * Adds a link to the selected text, or changes or removes the link the caret is in. A change sets
 * `href` on the link's definition and nothing else, so what an import kept there (target, rel,
 * title) stays.
 */
export function LinkDialog({ onClose }: { onClose: () => void }) {
  const t = useT();
  const editor = useEditor();
  // Read once: the dialog edits the link that was active when it opened.
  const [link] = useState(() => getActiveAnnotations(editor.getSnapshot()).find((annotation) => annotation._type === linkType));
  const [block] = useState(() => getFocusTextBlock(editor.getSnapshot()));
  const [href, setHref] = useState(typeof link?.href === 'string' ? link.href : '');

  const save = () => {
    const url = href.trim();
    if (url === '') return remove();
    if (link && block) editor.send({ type: 'annotation.set', at: [...block.path, 'markDefs', { _key: link._key }], props: { href: url } });
    else editor.send({ type: 'annotation.add', annotation: { name: linkType, value: { href: url } } });
    onClose();
  };
  const remove = () => {
    editor.send({ type: 'annotation.remove', annotation: { name: linkType } });
    onClose();
  };
  return (
    <FormDialog
      title={link ? t('pt.link.editTitle') : t('pt.link.addTitle')}
      isOpen
      onClose={onClose}
      onSubmit={save}
      submitLabel={t('pt.save')}
      extraAction={link ? <Button onPress={remove}>{t('pt.link.remove')}</Button> : undefined}
    >
      <TextField className="pt-field" value={href} onChange={setHref} autoFocus type="url">
        <Label>{t('pt.link.url')}</Label>
        <Input />
      </TextField>
    </FormDialog>
  );
}

/** Whether the link dialog can do anything: text is selected to link, or the caret is in a link. */
export function useLinkable(): boolean {
  const editor = useEditor();
  return useEditorSelector(editor, (snapshot) => {
    const selection = snapshot.context.selection;
    if (!selection) return false;
    const collapsed = JSON.stringify(selection.anchor) === JSON.stringify(selection.focus);
    return !collapsed || getActiveAnnotations(snapshot).some((annotation) => annotation._type === linkType);
  });
}
