import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { Button } from 'react-aria-components';
import { api, linesOf } from '../../api/client';
import { useT } from '../../i18n/i18n';
import type { MessageId } from '../../i18n/en';
import { messageOf } from '../../shell/notice';
import { hasStopped, type ImportJob } from './job-words';
import { Report } from './Report';

const phases: { id: ImportJob['progress']['phase']; label: MessageId }[] = [
  { id: 'structure', label: 'import.phase.structure' },
  { id: 'items', label: 'import.phase.items' },
  { id: 'links', label: 'import.phase.links' },
  { id: 'menus', label: 'import.phase.menus' },
  { id: 'media', label: 'import.phase.media' },
];

/**
 * An import followed as the server runs it (its progress lines, whichever process runs it), to its
 * report. One that stopped says why and what it did, and is resumed from here.
 */
export function JobView({ id }: { id: string }) {
  const t = useT();
  const queryClient = useQueryClient();
  const [job, setJob] = useState<ImportJob>();
  const [lost, setLost] = useState<string>();
  // Bumped to follow the job again: after a resume, or after the connection was lost.
  const [following, setFollowing] = useState(0);
  const followAgain = () => setFollowing((count) => count + 1);

  useEffect(() => {
    const stop = new AbortController();
    setLost(undefined);
    void (async () => {
      try {
        const lines = linesOf<ImportJob>(api.GET('/_cms/api/import/jobs/{id}/progress', { params: { path: { id } }, parseAs: 'stream', signal: stop.signal }));
        for await (const line of lines) setJob(line);
        // An import touches nearly everything the panel has read: collections, entries, terms, menus, media.
        await queryClient.invalidateQueries();
      } catch (error) {
        if (!stop.signal.aborted) setLost(messageOf(error));
      }
    })();
    return () => stop.abort();
  }, [id, following, queryClient]);

  const resume = useMutation({
    mutationFn: async () => {
      // Answered when the import has finished; the progress shows through the lines followed meanwhile.
      for await (const line of linesOf<ImportJob>(api.POST('/_cms/api/import/jobs/{id}/resume', { params: { path: { id } }, body: { stream: true }, parseAs: 'stream' }))) setJob(line);
    },
    onMutate: followAgain,
  });

  if (lost && !job) return <Lost message={lost} onRetry={followAgain} />;
  if (!job) return <p>{t('loading')}</p>;
  const stopped = hasStopped(job) && !resume.isPending;
  const current = phases.findIndex((phase) => phase.id === job.progress.phase);
  return (
    <section aria-labelledby="import-job">
      <h2 id="import-job">{t('import.job.title', { state: stopped ? 'stopped' : job.state })}</h2>
      {job.state !== 'succeeded' && (
        <>
          <ol className="import-phases" aria-label={t('import.job.phases')}>
            {phases.map((phase, index) => (
              <li key={phase.id} className={index < current || job.progress.phase === 'done' ? 'done' : undefined} aria-current={index === current ? 'step' : undefined}>
                {t(phase.label)}
              </li>
            ))}
          </ol>
          <div className="import-progress">
            <progress max={Math.max(job.progress.total, 1)} value={job.progress.processed} aria-label={t('import.job.progress')} />
            <span>{t('import.job.counted', { phase: job.progress.phase, processed: job.progress.processed, total: job.progress.total })}</span>
          </div>
        </>
      )}
      {lost && <Lost message={lost} onRetry={followAgain} />}
      {stopped && (
        <div role="alert">
          <p>{t('import.job.stopped', { error: job.lastError ?? '' })}</p>
          <p>{t('import.job.resumeAbout')}</p>
        </div>
      )}
      {resume.isError && <p role="alert">{messageOf(resume.error)}</p>}
      {stopped && (
        <Button className="react-aria-Button primary" onPress={() => resume.mutate()}>
          {t('import.job.resume')}
        </Button>
      )}
      {job.report && <Report report={job.report} partial={job.state !== 'succeeded'} />}
      {job.state === 'succeeded' && (
        <p>
          <Link to="/import" search={{}}>
            {t('import.another')}
          </Link>
        </p>
      )}
    </section>
  );
}

function Lost({ message, onRetry }: { message: string; onRetry: () => void }) {
  const t = useT();
  return (
    <div role="alert">
      <p>{t('import.job.lost', { error: message })}</p>
      <Button onPress={onRetry}>{t('error.retry')}</Button>
    </div>
  );
}
