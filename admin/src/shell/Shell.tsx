import { useQuery } from '@tanstack/react-query';
import { Link, Outlet, useMatchRoute } from '@tanstack/react-router';
import { collectionsQuery, meQuery } from '../api/queries';
import { useT } from '../i18n/i18n';
import { PaletteLauncher } from '../palette/PaletteLauncher';
import { adminScreens, structureScreens } from '../palette/places';
import { canShapeSite, canWriteContent, isAdmin } from '../roles';

/**
 * The frame of every screen: the navigation (only screens that exist, and only what the user's role
 * may use) and the screen itself. The server sent a visitor without a session to sign in before this
 * page loaded, so `me` is there to wait for, never a flash of a panel that is not theirs.
 */
export function Shell() {
  const t = useT();
  const me = useQuery(meQuery);
  const writer = me.data !== undefined && canWriteContent(me.data.item.role);
  // Asked for beside `me`, not after it: a role below Contributor is refused (403) and shown no collections.
  const collections = useQuery(collectionsQuery);
  // Every role has an account to manage, content or not.
  const onAccount = Boolean(useMatchRoute()({ to: '/account' }));
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        {t('nav.skip')}
      </a>
      <header className="masthead">
        <span className="brand">{t('app.name')}</span>
        <PaletteLauncher />
        {me.data && <span className="who">{t('signedInAs', { name: me.data.item.name, role: t('role', { role: me.data.item.role }) })}</span>}
      </header>
      <nav className="sidebar" aria-label={t('nav.label')}>
        <ul>
          <li>
            <Link to="/" activeOptions={{ exact: true }}>
              {t('nav.dashboard')}
            </Link>
          </li>
          {writer && (
            <li>
              <Link to="/media">{t('nav.media')}</Link>
            </li>
          )}
        </ul>
        {writer && collections.data && collections.data.items.length > 0 && (
          <>
            <h2 id="nav-collections">{t('nav.collections')}</h2>
            <ul aria-labelledby="nav-collections">
              {collections.data.items.map((collection) => (
                <li key={collection.slug}>
                  <Link to="/content/$collection" params={{ collection: collection.slug }}>
                    {collection.label}
                  </Link>
                </li>
              ))}
            </ul>
          </>
        )}
        {me.data && canShapeSite(me.data.item.role) && (
          <>
            <h2 id="nav-site">{t('nav.site')}</h2>
            <ul aria-labelledby="nav-site">
              {structureScreens.map(({ path, label }) => (
                <li key={path}>
                  <Link to={path}>{t(label)}</Link>
                </li>
              ))}
            </ul>
          </>
        )}
        <ul className="nav-end">
          {me.data &&
            isAdmin(me.data.item.role) &&
            adminScreens.map(({ path, label }) => (
              <li key={path}>
                <Link to={path}>{t(label)}</Link>
              </li>
            ))}
          <li>
            <Link to="/account">{t('nav.account')}</Link>
          </li>
        </ul>
      </nav>
      <main id="main" className="screen" tabIndex={-1}>
        {me.isPending ? <p>{t('loading')}</p> : me.data && !writer && !onAccount ? <p>{t('noAccess.body', { role: t('role', { role: me.data.item.role }) })}</p> : <Outlet />}
      </main>
    </div>
  );
}
