import { EditorProvider, PortableTextEditable, useEditor, type EditorEmittedEvent, type EditorSelection, type PortableTextBlock } from '@portabletext/editor';
import { BehaviorPlugin, EventListenerPlugin, NodePlugin } from '@portabletext/editor/plugins';
import { useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { labelIdOf, type FieldInputProps } from '../fields/input';
import { fieldSettled, fieldUnsettled } from '../fields/settling';
import { useT } from '../i18n/i18n';
import { MediaPickerContext } from '../media/pick';
import { AltDialog } from './AltDialog';
import { CodeDialog } from './CodeDialog';
import { EditorDialogsContext, type EditorDialogs, type OpenDialog } from './dialogs';
import { IntactBlocks } from './intact';
import { LinkDialog } from './LinkDialog';
import { nodesFor } from './nodes';
import { sameValue } from './same-value';
import { fileType, imageType, schemaFor, typesOf, withFolioTypes, type ValueTypes } from './schema';
import { shortcutBehaviors } from './shortcuts';
import { PortableTextToolbar } from './Toolbar';
import './portable-text.css';

/**
 * A `portableText` field: @portabletext/editor editing Folio's Portable Text as it is stored, with
 * no converter in between (decisions/0044). The editor holds the document; the form hears of a
 * change through `onChange` once the editor flushes its patches (after a pause in typing, or at
 * once for formatting), with the blocks nobody touched passed on exactly as they came.
 */
export function PortableTextInput(props: FieldInputProps<unknown[]>) {
  const { value, onChange } = props;
  const [session, setSession] = useState(() => newSession(value, 0));
  // The last value the editor handed the form, or the form handed the editor.
  const known = useRef<unknown[] | undefined>(value);
  const changed = useRef(onChange);
  useEffect(() => {
    changed.current = onChange;
  }, [onChange]);

  // A value from outside (restored edits, the other side of a conflict) starts the editor afresh with it;
  // the editor's own value coming back, or an equal one, does not.
  useEffect(() => {
    if (value === known.current) return;
    const same = sameValue(value ?? [], known.current ?? []);
    known.current = value;
    if (!same) setSession((current) => newSession(value, current.generation + 1));
  }, [value]);

  const emit = useCallback(
    (next: unknown[]) => {
      known.current = next;
      changed.current(next);
    },
    [],
  );

  const { readOnly, id, errorId, error, field } = props;
  return useMemo(
    () => (
      <EditorProvider key={session.generation} initialConfig={{ schemaDefinition: session.schema, readOnly: readOnly ?? false }}>
        <EditorBody session={session} emit={emit} readOnly={readOnly ?? false} id={id} errorId={errorId} hasError={error !== undefined} label={field.label} />
      </EditorProvider>
    ),
    // The value is not a dependency: the editor owns the document once it is mounted.
    [session, emit, readOnly, id, errorId, error, field.label],
  );
}

interface Session {
  generation: number;
  known: ValueTypes;
  schema: ReturnType<typeof schemaFor>;
  nodes: ReturnType<typeof nodesFor>;
  initialValue: PortableTextBlock[] | undefined;
  intact: IntactBlocks;
}

/** One editor's life: the schema and node renders for a value's types, made once. */
function newSession(value: unknown[] | undefined, generation: number): Session {
  const known = withFolioTypes(typesOf(value));
  return {
    generation,
    known,
    schema: schemaFor(known),
    nodes: nodesFor(known),
    initialValue: value && value.length > 0 ? (value as PortableTextBlock[]) : undefined,
    intact: new IntactBlocks(value),
  };
}

interface BodyProps {
  session: Session;
  emit: (value: unknown[]) => void;
  readOnly: boolean;
  id: string;
  errorId: string;
  hasError: boolean;
  label: string;
}

function EditorBody({ session, emit, readOnly, id, errorId, hasError, label }: BodyProps) {
  const t = useT();
  const editor = useEditor();
  const pick = useContext(MediaPickerContext);
  const [dialog, setDialog] = useState<OpenDialog | undefined>();
  const [invalid, setInvalid] = useState<string | undefined>();
  const toolbarRef = useRef<HTMLDivElement>(null);
  // The selection when a dialog opened: put back on closing when the dialog's action left none.
  const selectionAtOpen = useRef<EditorSelection>(null);
  const open = useCallback(
    (next: OpenDialog) => {
      selectionAtOpen.current = editor.getSnapshot().context.selection;
      setDialog(next);
    },
    [editor],
  );

  useEffect(() => {
    editor.send({ type: 'update readOnly', readOnly });
  }, [editor, readOnly]);

  // The value goes in as an update, not as the provider's `initialValue`: the editor takes an initial
  // value ten blocks per task, one render and frame after another (200 blocks: some 140 ms more on
  // this machine than in one go), and an update in one pass and one render. An update is not an edit:
  // no patch, no mutation, no undo step. Sent before the provider's own effect starts the editor, it
  // waits in the editor's queue until then.
  useEffect(() => {
    if (session.initialValue) editor.send({ type: 'update value', value: session.initialValue });
  }, [editor, session]);

  // A patch comes at each change, its mutation (the value) once the editor's batch is flushed: in
  // between, what is on screen is not yet the form's (fields/settling.ts).
  useEffect(() => () => fieldSettled(session), [session]);
  const onEvent = useCallback(
    (event: EditorEmittedEvent) => {
      if (event.type === 'patch') {
        fieldUnsettled(session);
      } else if (event.type === 'mutation') {
        session.intact.note(event.patches);
        emit(session.intact.merge(event.value));
        fieldSettled(session);
      } else if (event.type === 'invalid value') {
        setInvalid(event.resolution?.description ?? '');
      }
    },
    [session, emit],
  );

  const dialogs = useMemo<EditorDialogs>(() => {
    const insertMedia = pick
      ? (accept: 'image' | 'any') => {
          void pick({ accept }).then((item) => {
            if (item) {
              const block =
                accept === 'image'
                  ? { name: imageType, value: { id: item.id, url: item.url, alt: item.alt ?? '' } }
                  : { name: fileType, value: { id: item.id, url: item.url, filename: item.filename, mimeType: item.mimeType } };
              editor.send({ type: 'insert.block object', placement: 'auto', blockObject: block });
            }
            editor.send({ type: 'focus' });
          });
        }
      : undefined;
    return { open, ...(insertMedia ? { insertMedia } : {}) };
  }, [pick, editor, open]);

  const behaviors = useMemo(
    () =>
      shortcutBehaviors({
        openLink: () => open({ kind: 'link' }),
        focusToolbar: () => toolbarRef.current?.querySelector<HTMLElement>('button:not([disabled])')?.focus(),
      }),
    [open],
  );
  const close = useCallback(() => {
    // The caret as the dialog's action left it, collapsed to its end: after a link is added the caret
    // is after the link (as in a word processor), so what comes next, typed or inserted, never
    // replaces the linked words. Closing, React Aria gives focus back to where it was when the dialog
    // opened, and the browser puts the caret at the start of the text then; the editor's own
    // selection is put back once that is done.
    const selection = collapsedToEnd(editor.getSnapshot().context.selection ?? selectionAtOpen.current);
    setDialog(undefined);
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        if (selection) editor.send({ type: 'select', at: selection });
        editor.send({ type: 'focus' });
      }),
    );
  }, [editor]);

  return (
    <EditorDialogsContext.Provider value={dialogs}>
      <EventListenerPlugin on={onEvent} />
      <NodePlugin nodes={session.nodes} />
      <BehaviorPlugin behaviors={behaviors} />
      <div className="pt-editor" data-invalid={hasError || undefined}>
        {readOnly ? null : <PortableTextToolbar label={label} toolbarRef={toolbarRef} />}
        <PortableTextEditable
          id={id}
          className="pt-editable"
          aria-labelledby={labelIdOf(id)}
          aria-describedby={hasError ? errorId : undefined}
          aria-invalid={hasError || undefined}
          aria-keyshortcuts="Alt+F10"
        />
      </div>
      {invalid !== undefined ? (
        <p className="problem" role="alert">
          {t('pt.invalid', { reason: invalid })}
        </p>
      ) : null}
      {dialog?.kind === 'link' ? <LinkDialog onClose={close} /> : null}
      {dialog?.kind === 'code' ? <CodeDialog block={dialog.block} onClose={close} /> : null}
      {dialog?.kind === 'alt' ? <AltDialog block={dialog.block} onClose={close} /> : null}
    </EditorDialogsContext.Provider>
  );
}

/** A selection made a caret at its end (the end in reading order, whichever way it was made). */
function collapsedToEnd(selection: EditorSelection): EditorSelection {
  if (!selection) return selection;
  const end = selection.backward ? selection.anchor : selection.focus;
  return { anchor: end, focus: end, backward: false };
}
