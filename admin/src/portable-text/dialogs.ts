import { createContext, useContext } from 'react';
import type { PortableTextObject } from '@portabletext/editor';

/**
 * The editor's dialogs (link, code, alt text) are opened from the toolbar, from keyboard shortcuts
 * and from the cards of blocks inside the text; one owner (PortableTextInput) holds which is open.
 */
export type OpenDialog =
  | { kind: 'link' }
  /** A new code block when `block` is absent. */
  | { kind: 'code'; block?: PortableTextObject }
  | { kind: 'alt'; block: PortableTextObject };

export interface EditorDialogs {
  open: (dialog: OpenDialog) => void;
  /** Asks the media library for an item and inserts it as an image or file block. */
  insertMedia?: (accept: 'image' | 'any') => void;
}

export const EditorDialogsContext = createContext<EditorDialogs>({ open: () => undefined });

export function useEditorDialogs(): EditorDialogs {
  return useContext(EditorDialogsContext);
}
