import { useMutation, useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { Button } from 'react-aria-components';
import { api, dataOf, type ContentCollection, type Entry } from '../../../api/client';
import { useT } from '../../../i18n/i18n';
import { useSiteLocales } from '../../../locales';
import { translationsQuery } from './queries';

/**
 * The entry's locale and its translation group (GET .../translations): each translation opens in the
 * editor, and each site locale without one offers to start it from this entry (POST with
 * `translationOf` and the source's values, a draft to translate).
 */
export function TranslationsPanel({ collection, entry }: { collection: ContentCollection; entry: Entry }) {
  const t = useT();
  const navigate = useNavigate();
  const locales = useSiteLocales();
  const group = useQuery(translationsQuery(collection.slug, entry.id));
  const start = useMutation({
    mutationFn: (locale: string) =>
      dataOf(api.POST('/_cms/api/content/{collection}', { params: { path: { collection: collection.slug } }, body: { data: entry.data, locale, translationOf: entry.id } })),
    onSuccess: ({ item }) => void navigate({ to: '/content/$collection/$id', params: { collection: collection.slug, id: item.id } }),
  });
  const others = (group.data?.items ?? []).filter((item) => item.id !== entry.id && !item.trashed);
  const missing = locales.filter((locale) => locale !== entry.locale && !(group.data?.items ?? []).some((item) => item.locale === locale));
  return (
    <section className="side-panel" aria-labelledby="translations-heading">
      <h2 id="translations-heading">{t('sidebar.translations')}</h2>
      <p>{t('sidebar.locale', { locale: entry.locale })}</p>
      {group.isError && <p role="alert">{group.error.message}</p>}
      {others.length > 0 && (
        <ul className="sidebar-chosen" aria-label={t('sidebar.translationList')}>
          {others.map((item) => (
            <li key={item.id}>
              <Link to="/content/$collection/$id" params={{ collection: collection.slug, id: item.id }}>
                {t('sidebar.openTranslation', { locale: item.locale })}
              </Link>
              <span className={`status status-${item.status}`}>{t(`status.${item.status}`)}</span>
            </li>
          ))}
        </ul>
      )}
      {group.data &&
        missing.map((locale) => (
          <Button key={locale} isDisabled={start.isPending} onPress={() => start.mutate(locale)}>
            {t('sidebar.startTranslation', { locale })}
          </Button>
        ))}
      {start.isError && <p role="alert">{start.error.message}</p>}
    </section>
  );
}
