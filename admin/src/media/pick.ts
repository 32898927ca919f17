import { createContext, useContext } from 'react';
import type { Schemas } from '../api/client';

export type MediaItem = Schemas['MediaItem'];

/** Opens the media library as a picker (upload inside it) and resolves with the chosen item, or nothing when closed without one. */
export type PickMedia = (options: { accept: 'image' | 'any' }) => Promise<MediaItem | undefined>;

/**
 * How the editor's widgets (an image field, an image in Portable Text) ask for a media item without
 * knowing the library: the library's provider, mounted once around the screens, supplies it.
 */
export const MediaPickerContext = createContext<PickMedia | undefined>(undefined);

export function usePickMedia(): PickMedia {
  const pick = useContext(MediaPickerContext);
  if (!pick) throw new Error('usePickMedia needs the media library provider around the screen');
  return pick;
}
