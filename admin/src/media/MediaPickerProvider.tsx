import { lazy, Suspense, useCallback, useState, type ReactNode } from 'react';
import { MediaPickerContext, type MediaItem, type PickMedia } from './pick';

// The grid, uploads and their CSS load when the picker first opens, not with the screens around it.
const PickerDialog = lazy(() => import('./PickerDialog').then((module) => ({ default: module.PickerDialog })));

interface Request {
  accept: 'image' | 'any';
  resolve: (item: MediaItem | undefined) => void;
}

/**
 * Supplies `usePickMedia` to every screen (mounted once around them): a widget awaits the item
 * chosen in the library's dialog, or undefined when it is closed without one. A second request while
 * one is open settles the first with nothing.
 */
export function MediaPickerProvider({ children }: { children: ReactNode }) {
  const [request, setRequest] = useState<Request | undefined>();
  const pick = useCallback<PickMedia>(
    ({ accept }) =>
      new Promise((resolve) => {
        setRequest((previous) => {
          previous?.resolve(undefined);
          return { accept, resolve };
        });
      }),
    [],
  );
  const settle = (item: MediaItem | undefined) => {
    request?.resolve(item);
    setRequest(undefined);
  };
  return (
    <MediaPickerContext.Provider value={pick}>
      {children}
      {request && (
        <Suspense fallback={null}>
          <PickerDialog accept={request.accept} onSettle={settle} />
        </Suspense>
      )}
    </MediaPickerContext.Provider>
  );
}
