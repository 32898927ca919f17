import { useEditor, useEditorSelector } from '@portabletext/editor';
import { getActiveListItem, getActiveStyle, isActiveAnnotation, isActiveDecorator } from '@portabletext/editor/selectors';
import type { RefObject } from 'react';
import { Button, Group, Menu, MenuItem, MenuTrigger, Popover, Separator, ToggleButton, Toolbar } from 'react-aria-components';
import type { MessageId } from '../i18n/en';
import { useT } from '../i18n/i18n';
import { useEditorDialogs } from './dialogs';
import { useLinkable } from './LinkDialog';
import { linkType, offeredDecorators, offeredLists, offeredStyles } from './schema';
import { shortcutLabels } from './shortcuts';

const styleLabels: Record<string, MessageId> = {
  normal: 'pt.style.normal',
  h1: 'pt.style.h1',
  h2: 'pt.style.h2',
  h3: 'pt.style.h3',
  h4: 'pt.style.h4',
  h5: 'pt.style.h5',
  h6: 'pt.style.h6',
  blockquote: 'pt.style.blockquote',
};

const decoratorLabels: Record<(typeof offeredDecorators)[number], MessageId> = {
  strong: 'pt.decorator.strong',
  em: 'pt.decorator.em',
  code: 'pt.decorator.code',
  underline: 'pt.decorator.underline',
  'strike-through': 'pt.decorator.strike',
};

const listLabels: Record<(typeof offeredLists)[number], MessageId> = { bullet: 'pt.list.bullet', number: 'pt.list.number' };

/**
 * The formatting toolbar (React Aria Toolbar: one Tab stop, arrow keys between its controls). Each
 * control shows its state for the selection and hands focus back to the text after acting.
 */
export function PortableTextToolbar({ label, toolbarRef }: { label: string; toolbarRef: RefObject<HTMLDivElement | null> }) {
  const t = useT();
  const editor = useEditor();
  const dialogs = useEditorDialogs();
  const style = useEditorSelector(editor, getActiveStyle);
  const list = useEditorSelector(editor, getActiveListItem);
  const linked = useEditorSelector(editor, isActiveAnnotation(linkType));
  const linkable = useLinkable();
  const refocus = () => editor.send({ type: 'focus' });

  return (
    <Toolbar className="pt-toolbar" aria-label={t('pt.toolbar', { field: label })} ref={toolbarRef}>
      <MenuTrigger>
        <Button className="react-aria-Button pt-style-button" aria-label={t('pt.style.current', { style: style ? t(styleLabels[style] ?? 'pt.style.other', { style }) : t('pt.style.none') })}>
          {style ? t(styleLabels[style] ?? 'pt.style.other', { style }) : t('pt.style.none')}
        </Button>
        <Popover className="pt-popover">
          <Menu
            aria-label={t('pt.style.menu')}
            selectionMode="single"
            selectedKeys={style ? [style] : []}
            onAction={(key) => {
              editor.send({ type: 'style.add', style: String(key) });
              refocus();
            }}
          >
            {offeredStyles.map((name) => (
              <MenuItem key={name} id={name}>
                {t(styleLabels[name] ?? 'pt.style.other', { style: name })}
              </MenuItem>
            ))}
          </Menu>
        </Popover>
      </MenuTrigger>
      <Separator orientation="vertical" />
      <Group aria-label={t('pt.decorators')} className="pt-group">
        {offeredDecorators.map((decorator) => (
          <DecoratorButton key={decorator} decorator={decorator} label={t(decoratorLabels[decorator])} />
        ))}
      </Group>
      <Separator orientation="vertical" />
      <Group aria-label={t('pt.lists')} className="pt-group">
        {offeredLists.map((name) => (
          <ToggleButton
            key={name}
            isSelected={list === name}
            onChange={() => {
              editor.send({ type: 'list item.toggle', listItem: name });
              refocus();
            }}
          >
            {t(listLabels[name])}
          </ToggleButton>
        ))}
      </Group>
      <Separator orientation="vertical" />
      <ToggleButton isSelected={linked} isDisabled={!linkable} onChange={() => dialogs.open({ kind: 'link' })} aria-keyshortcuts={shortcutLabels.link}>
        {t('pt.link')}
      </ToggleButton>
      <MenuTrigger>
        <Button>{t('pt.insert')}</Button>
        <Popover className="pt-popover">
          <Menu
            aria-label={t('pt.insertMenu')}
            onAction={(key) => {
              if (key === 'code') dialogs.open({ kind: 'code' });
              else dialogs.insertMedia?.(key === 'image' ? 'image' : 'any');
            }}
          >
            <MenuItem id="code">{t('pt.insert.code')}</MenuItem>
            {dialogs.insertMedia ? <MenuItem id="image">{t('pt.insert.image')}</MenuItem> : null}
            {dialogs.insertMedia ? <MenuItem id="file">{t('pt.insert.file')}</MenuItem> : null}
          </Menu>
        </Popover>
      </MenuTrigger>
    </Toolbar>
  );
}

function DecoratorButton({ decorator, label }: { decorator: (typeof offeredDecorators)[number]; label: string }) {
  const editor = useEditor();
  const active = useEditorSelector(editor, isActiveDecorator(decorator));
  return (
    <ToggleButton
      isSelected={active}
      aria-keyshortcuts={shortcutLabels[decorator]}
      className={`react-aria-ToggleButton pt-decorator-button pt-decorator-${decorator}`}
      onChange={() => {
        editor.send({ type: 'decorator.toggle', decorator });
        editor.send({ type: 'focus' });
      }}
    >
      {label}
    </ToggleButton>
  );
}
