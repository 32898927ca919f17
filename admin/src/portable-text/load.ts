import type { ComponentType } from 'react';
import type { FieldInputProps } from '../fields/input';

type PortableTextInputComponent = ComponentType<FieldInputProps<unknown[]>>;

/**
 * The Portable Text engine is the editor's largest part, its own chunk. It is asked for as soon as
 * an entry that needs it is about to open (the entry route's loader, also when a link to the entry
 * is hovered), beside the editor's chunk and the entry; once here, the field renders it directly,
 * with no Suspense fallback in between (React holds a fallback's reveal back by some 300 ms).
 */
let loading: Promise<PortableTextInputComponent> | undefined;
let loaded: PortableTextInputComponent | undefined;

export function loadPortableTextInput(): Promise<PortableTextInputComponent> {
  loading ??= import('./PortableTextInput').then(
    (module) => (loaded = module.PortableTextInput),
    (error: unknown) => {
      // A failed download (a dropped connection) is tried again by the next field or route that asks.
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** The component once its chunk is here, else undefined. */
export function loadedPortableTextInput(): PortableTextInputComponent | undefined {
  return loaded;
}
