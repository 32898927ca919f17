import { i18n } from '@lingui/core';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { useLingui } from '@lingui/react';
import { useMemo } from 'react';
import { en, type MessageId } from './en';

/**
 * Lingui with message ids and no macro (decisions/0042): the catalogs are plain objects of ICU
 * messages, compiled in the browser when loaded (Lingui leaves its compiler out of production
 * builds unless given one, as here), and `t` only takes an id the English catalog has.
 */
i18n.setMessagesCompiler(compileMessage);
i18n.loadAndActivate({ locale: 'en', messages: en });

export { i18n };

export type Translate = (id: MessageId, values?: Record<string, unknown>) => string;

/** The active language's `t`; components re-render when it changes. */
export function useT(): Translate {
  const { i18n: active } = useLingui();
  return (id, values) => active._(id, values);
}

/** Dates as the person's language writes them, in their time zone: one formatter per language, made once (each costs). */
export function useDateFormat(): (iso: string) => string {
  const { i18n: active } = useLingui();
  const format = useMemo(() => new Intl.DateTimeFormat(active.locale, { dateStyle: 'medium', timeStyle: 'short' }), [active.locale]);
  return (iso) => format.format(new Date(iso));
}
