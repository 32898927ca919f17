import { i18n } from '@lingui/core';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { useLingui } from '@lingui/react';
import { useMemo } from 'react';
import { en, type MessageId } from './en';

/**
 * Lingui with message ids and no macro (decisions/0042): the catalogs are plain objects of ICU
 * messages, compiled in the browser (Lingui leaves its compiler out of production builds unless given
 * one, as here), and `t` only takes an id the English catalog has. Lingui compiles a message on every
 * use; kept once compiled here, since a list says "Published" in each of its rows as they scroll in.
 */
const compiled = new Map<string, ReturnType<typeof compileMessage>>();
i18n.setMessagesCompiler((message) => {
  let done = compiled.get(message);
  if (done === undefined) {
    done = compileMessage(message);
    compiled.set(message, done);
  }
  return done;
});
i18n.loadAndActivate({ locale: 'en', messages: en });

export { i18n };

export type Translate = (id: MessageId, values?: Record<string, unknown>) => string;

/**
 * The active language's `t`; components re-render when it changes. The same function until then, so
 * that a memoized component given it (a list's rows) is not rendered again for nothing.
 */
export function useT(): Translate {
  // Lingui gives a new `_` when the language changes.
  const { _: translate } = useLingui();
  return useMemo<Translate>(() => (id, values) => translate(id, values), [translate]);
}

/**
 * One date formatter per language for the whole panel: making one costs a fraction of a millisecond,
 * which a list paid per row as rows scrolled into view.
 */
const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** Dates as the person's language writes them, in their time zone. */
export function useDateFormat(): (iso: string) => string {
  const { i18n: active } = useLingui();
  let format = dateFormats.get(active.locale);
  if (!format) {
    format = new Intl.DateTimeFormat(active.locale, { dateStyle: 'medium', timeStyle: 'short' });
    dateFormats.set(active.locale, format);
  }
  return (iso) => format.format(new Date(iso));
}

const numberFormats = new Map<string, Intl.NumberFormat>();

/** Numbers as the person's language writes them (12,408 or 12.408). */
export function useNumberFormat(): (value: number) => string {
  const { i18n: active } = useLingui();
  let format = numberFormats.get(active.locale);
  if (!format) {
    format = new Intl.NumberFormat(active.locale);
    numberFormats.set(active.locale, format);
  }
  return (value) => format.format(value);
}
