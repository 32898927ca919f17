import { useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { meQuery } from '../../api/queries';
import { useT } from '../../i18n/i18n';
import type { MessageId } from '../../i18n/en';
import { isAdmin } from '../../roles';
import { AnalysisReview } from './AnalysisReview';
import { ImportStart } from './ImportStart';
import { JobView } from './JobView';
import './import.css';

const importRoute = getRouteApi('/import');

const steps: { id: 'start' | 'review' | 'run'; label: MessageId }[] = [
  { id: 'start', label: 'import.step.start' },
  { id: 'review', label: 'import.step.review' },
  { id: 'run', label: 'import.step.run' },
];

/**
 * The import wizard (issue 33), for admins: where the site is and what to do about it, the export
 * uploaded and analysed, the analysis reviewed (post types, authors, options), then the import run
 * and followed to its report. The step is in the address, and the import runs on the server: a tab
 * closed and opened again finds it where it is.
 */
export function Import() {
  const t = useT();
  const me = useQuery(meQuery);
  const search = importRoute.useSearch();
  if (me.data && !isAdmin(me.data.item.role)) return <p>{t('import.adminsOnly')}</p>;
  const step = search.job ? 'run' : search.analysis ? 'review' : 'start';
  return (
    <div className="import">
      <h1>{t('import.title')}</h1>
      <ol className="import-steps" aria-label={t('import.steps')}>
        {steps.map(({ id, label }) => (
          <li key={id} aria-current={id === step ? 'step' : undefined}>
            {t(label)}
          </li>
        ))}
      </ol>
      {search.job ? <JobView key={search.job} id={search.job} /> : search.analysis ? <AnalysisReview key={search.analysis} id={search.analysis} /> : <ImportStart />}
    </div>
  );
}
