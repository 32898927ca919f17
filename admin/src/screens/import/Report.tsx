import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useId } from 'react';
import type { Schemas } from '../../api/client';
import { collectionsQuery } from '../../api/queries';
import { useNumberFormat, useT } from '../../i18n/i18n';

type ImportReport = Schemas['ImportReport'];

/** Lists of items longer than this say how many more there are, rather than fill the page. */
const shown = 200;

/**
 * What an import did: the entries per collection (each leading to its list) and what came along,
 * then what was skipped and why, what failed, and each warning with the entry it concerns.
 */
export function Report({ report, partial }: { report: ImportReport; partial: boolean }) {
  const t = useT();
  const id = useId();
  const number = useNumberFormat();
  const collections = useQuery(collectionsQuery);
  const labelOf = (slug: string) => collections.data?.items.find((collection) => collection.slug === slug)?.label ?? slug;
  const downloads = report.media.downloads;
  const commentCount = report.comments.approved + report.comments.pending + report.comments.spam + report.comments.trash;
  return (
    <div className="import-report">
      <h3 id={`${id}-done`}>{partial ? t('import.report.sofar') : t('import.report.title')}</h3>
      <ul className="import-summary" aria-labelledby={`${id}-done`}>
        {Object.entries(report.counts).map(([collection, count]) => (
          <li key={collection}>
            <Link to="/content/$collection" params={{ collection }}>
              {t('import.report.entries', { count, collection: labelOf(collection) })}
            </Link>
          </li>
        ))}
        {report.sections > 0 && (
          <li>
            <Link to="/sections">{t('import.report.sections', { count: report.sections })}</Link>
          </li>
        )}
        {report.terms > 0 && (
          <li>
            <Link to="/taxonomies">{t('import.report.terms', { count: report.terms })}</Link>
          </li>
        )}
        {report.menus > 0 && (
          <li>
            <Link to="/menus">{t('import.report.menus', { count: report.menus, items: report.menuItems })}</Link>
          </li>
        )}
        {report.bylines > 0 && <li>{t('import.report.bylines', { count: report.bylines })}</li>}
        {report.redirects > 0 && <li>{t('import.report.redirects', { count: report.redirects })}</li>}
        {commentCount > 0 && <li>{t('import.report.comments', { count: commentCount, pending: report.comments.pending, spam: report.comments.spam, trash: report.comments.trash })}</li>}
        {report.alreadyImported > 0 && <li>{t('import.report.already', { count: report.alreadyImported })}</li>}
        {downloads && <li>{t('import.report.media', { downloaded: downloads.downloaded + downloads.reused + downloads.existing, total: downloads.total, failed: downloads.failed })}</li>}
      </ul>

      {report.failed.length > 0 && (
        <ItemTable
          title={t('import.report.failed', { count: report.failed.length })}
          column={t('import.report.cause')}
          rows={report.failed.map((item) => ({ key: item.sourceId, title: item.title, sourceId: item.sourceId, text: item.cause }))}
        />
      )}
      {report.warnings.length > 0 && (
        <ItemTable
          title={t('import.report.warnings', { count: report.warnings.length })}
          column={t('import.report.warning')}
          rows={report.warnings.map((item, index) => ({ key: `${item.sourceId}-${index}`, title: item.title, sourceId: item.sourceId, text: item.message, entry: item.entry }))}
        />
      )}
      {report.skipped.length > 0 && (
        <>
          <h3>{t('import.report.skipped')}</h3>
          <table className="data-table" aria-label={t('import.report.skipped')}>
            <thead>
              <tr>
                <th scope="col">{t('import.report.reason')}</th>
                <th scope="col">{t('import.review.items')}</th>
              </tr>
            </thead>
            <tbody>
              {report.skipped.map((group) => (
                <tr key={group.reason}>
                  <th scope="row">
                    {group.reason}
                    {group.items.length > 0 && (
                      <details>
                        <summary>{t('import.report.which')}</summary>
                        <ul>
                          {group.items.slice(0, shown).map((item) => (
                            <li key={item.sourceId}>{item.title ?? t('import.report.untitled', { id: item.sourceId })}</li>
                          ))}
                        </ul>
                      </details>
                    )}
                  </th>
                  <td>{number(group.count)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </div>
  );
}

interface ItemRow {
  key: string;
  title: string | null;
  sourceId: string;
  text: string;
  entry?: { collection: string; id: string };
}

function ItemTable({ title, column, rows }: { title: string; column: string; rows: ItemRow[] }) {
  const t = useT();
  return (
    <>
      <h3>{title}</h3>
      <table className="data-table" aria-label={title}>
        <thead>
          <tr>
            <th scope="col">{t('import.report.item')}</th>
            <th scope="col">{column}</th>
          </tr>
        </thead>
        <tbody>
          {rows.slice(0, shown).map((row) => {
            const name = row.title ?? t('import.report.untitled', { id: row.sourceId });
            return (
              <tr key={row.key}>
                <th scope="row">
                  {row.entry ? (
                    <Link to="/content/$collection/$id" params={{ collection: row.entry.collection, id: row.entry.id }}>
                      {name}
                    </Link>
                  ) : (
                    name
                  )}
                </th>
                <td>{row.text}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {rows.length > shown && <p>{t('import.report.more', { count: rows.length - shown })}</p>}
    </>
  );
}
