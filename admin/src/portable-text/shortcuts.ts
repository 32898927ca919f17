import { defineBehavior, effect, raise, type Behavior } from '@portabletext/editor/behaviors';

/**
 * Keyboard shortcuts beyond the editor's own (it binds Mod+B, Mod+I, Mod+U, Mod+' for strong, em,
 * underline and code, and Mod+Z / Mod+Shift+Z): the conventions of word processors, Mod being Cmd on
 * Apple systems and Ctrl elsewhere. The toolbar names them in `aria-keyshortcuts`.
 */

interface Chord {
  /** A letter (any case) or a digit, which is matched by its key code so Alt does not change it. */
  key: string;
  shift?: boolean;
  alt?: boolean;
}

const apple = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

function matches(event: Pick<KeyboardEvent, 'key' | 'code' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey'>, chord: Chord): boolean {
  const mod = apple ? event.metaKey && !event.ctrlKey : event.ctrlKey && !event.metaKey;
  if (!mod || event.shiftKey !== Boolean(chord.shift) || event.altKey !== Boolean(chord.alt)) return false;
  if (/^\d$/.test(chord.key)) return event.code === `Digit${chord.key}` || event.code === `Numpad${chord.key}`;
  return event.key.toLowerCase() === chord.key.toLowerCase();
}

const styleChords: [Chord, string][] = [
  [{ key: '0', alt: true }, 'normal'],
  [{ key: '2', alt: true }, 'h2'],
  [{ key: '3', alt: true }, 'h3'],
  [{ key: '4', alt: true }, 'h4'],
  [{ key: 'q', shift: true }, 'blockquote'],
];

const listChords: [Chord, string][] = [
  [{ key: '8', shift: true }, 'bullet'],
  [{ key: '7', shift: true }, 'number'],
];

const strikeChord: Chord = { key: 'x', shift: true };
const linkChord: Chord = { key: 'k' };

const mod = apple ? 'Meta' : 'Control';

/** The shortcuts as `aria-keyshortcuts` writes them, for the toolbar's buttons. */
export const shortcutLabels: Record<string, string> = {
  strong: `${mod}+B`,
  em: `${mod}+I`,
  underline: `${mod}+U`,
  code: `${mod}+'`,
  'strike-through': `${mod}+Shift+X`,
  link: `${mod}+K`,
};

/** The behaviors, given what opens the link dialog and what moves focus to the toolbar (Alt+F10). */
export function shortcutBehaviors({ openLink, focusToolbar }: { openLink: () => void; focusToolbar: () => void }): Behavior[] {
  return [
    ...styleChords.map(([chord, style]) =>
      defineBehavior({
        on: 'keyboard.keydown',
        guard: ({ event }) => matches(event.originEvent, chord),
        actions: [() => [raise({ type: 'style.toggle', style })]],
      }),
    ),
    ...listChords.map(([chord, listItem]) =>
      defineBehavior({
        on: 'keyboard.keydown',
        guard: ({ event }) => matches(event.originEvent, chord),
        actions: [() => [raise({ type: 'list item.toggle', listItem })]],
      }),
    ),
    defineBehavior({
      on: 'keyboard.keydown',
      guard: ({ event }) => matches(event.originEvent, strikeChord),
      actions: [() => [raise({ type: 'decorator.toggle', decorator: 'strike-through' })]],
    }),
    defineBehavior({
      on: 'keyboard.keydown',
      guard: ({ event }) => matches(event.originEvent, linkChord),
      actions: [() => [effect(openLink)]],
    }),
    defineBehavior({
      on: 'keyboard.keydown',
      guard: ({ event }) => event.originEvent.key === 'F10' && event.originEvent.altKey,
      actions: [() => [effect(focusToolbar)]],
    }),
  ];
}
