import { lazy, Suspense, useEffect, useState } from 'react';
import { Button } from 'react-aria-components';
import { useT } from '../i18n/i18n';
import './launcher.css';

// The palette itself (its dialog, list and searches) is its own chunk, fetched the first time it opens.
const CommandPalette = lazy(() => import('./CommandPalette').then((module) => ({ default: module.CommandPalette })));

/** Ctrl-K (Cmd-K on a Mac) anywhere in the panel but rich text. */
function isPaletteKey(event: KeyboardEvent): boolean {
  return event.key.toLowerCase() === 'k' && (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey;
}

/**
 * What the main bundle holds of the command palette (decisions/0048): the key that opens it and a
 * button saying so. Closing it returns focus where it was (React Aria's modal restores the focus it
 * found when it opened, which the lazy load does not move).
 */
export function PaletteLauncher() {
  const t = useT();
  const [open, setOpen] = useState(false);
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!isPaletteKey(event)) return;
      // In rich text, Ctrl-K adds a link (the Portable Text field's own shortcut): the text keeps it.
      if (event.defaultPrevented || (event.target instanceof Element && event.target.closest('[contenteditable="true"]'))) return;
      // The browser's own Ctrl-K (its address bar's search) would take the keys from the panel.
      event.preventDefault();
      setOpen(true);
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
  return (
    <>
      <Button className="react-aria-Button palette-button" onPress={() => setOpen(true)} aria-keyshortcuts="Control+K Meta+K">
        {t('palette.open')} <kbd>{t('palette.shortcut')}</kbd>
      </Button>
      {open && (
        <Suspense fallback={null}>
          <CommandPalette onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
