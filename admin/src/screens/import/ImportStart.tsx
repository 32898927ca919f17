import { useMutation, useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useId, useState, type FormEvent } from 'react';
import { Button } from 'react-aria-components';
import { api, dataOf, refusalOf, uploadWithProgress, type Schemas } from '../../api/client';
import { useDateFormat, useNumberFormat, useT } from '../../i18n/i18n';
import { FieldIssue } from '../../shell/FieldIssue';
import { FormEnd } from '../../shell/FormEnd';
import { TextSetting } from '../../shell/TextSetting';
import { messageOf } from '../../shell/notice';
import { jobSummary } from './job-words';
import { analysesQuery, importJobsQuery } from './queries';

const importRoute = getRouteApi('/import');

/** The first step: imports under way or done, where the site is now, and its export file uploaded. */
export function ImportStart() {
  return (
    <>
      <RecentImports />
      <WaitingAnalyses />
      <SiteProbe />
      <ExportUpload />
    </>
  );
}

function RecentImports() {
  const t = useT();
  const date = useDateFormat();
  const jobs = useQuery(importJobsQuery);
  const items = jobs.data?.items ?? [];
  if (items.length === 0) return null;
  const running = items.find((job) => job.state === 'running' || (job.state === 'queued' && job.lastError === null));
  return (
    <section aria-labelledby="import-recent">
      <h2 id="import-recent">{t('import.recent')}</h2>
      {running && (
        <p className="import-found">
          {t('import.recent.running')}{' '}
          <Link to="/import" search={{ job: running.id }}>
            {t('import.recent.follow')}
          </Link>
        </p>
      )}
      <table className="data-table" aria-label={t('import.recent')}>
        <thead>
          <tr>
            <th scope="col">{t('import.recent.started')}</th>
            <th scope="col">{t('import.recent.state')}</th>
            <th scope="col">{t('import.recent.what')}</th>
          </tr>
        </thead>
        <tbody>
          {items.map((job) => (
            <tr key={job.id}>
              <th scope="row">
                <Link to="/import" search={{ job: job.id }}>
                  {date(job.createdAt)}
                </Link>
              </th>
              <td>{t('import.state', { state: job.state })}</td>
              <td>{jobSummary(job, t)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

/** Exports analysed and not imported (a review left, a site connected in another tab): back to their review. */
function WaitingAnalyses() {
  const t = useT();
  const date = useDateFormat();
  const number = useNumberFormat();
  const analyses = useQuery(analysesQuery);
  const jobs = useQuery(importJobsQuery);
  if (!jobs.data) return null;
  const imported = new Set(jobs.data.items.map((job) => job.analysisId));
  const waiting = (analyses.data?.items ?? []).filter((analysis) => !imported.has(analysis.analysisId));
  if (waiting.length === 0) return null;
  return (
    <section aria-labelledby="import-waiting">
      <h2 id="import-waiting">{t('import.waiting')}</h2>
      <table className="data-table" aria-labelledby="import-waiting">
        <thead>
          <tr>
            <th scope="col">{t('import.waiting.site')}</th>
            <th scope="col">{t('import.review.items')}</th>
            <th scope="col">{t('import.waiting.analysed')}</th>
            <th scope="col">{t('import.waiting.until')}</th>
          </tr>
        </thead>
        <tbody>
          {waiting.map((analysis) => (
            <tr key={analysis.analysisId}>
              <th scope="row">
                <Link to="/import" search={{ analysis: analysis.analysisId }}>
                  {analysis.site.title || analysis.site.url}
                </Link>
              </th>
              <td>{number(analysis.entries)}</td>
              <td>{date(analysis.createdAt)}</td>
              <td>{date(analysis.expiresAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

type Probe = Schemas['ImportProbe'];

/** The probe's suggested action as the message selects it (an ICU select key has no hyphen). */
const nextSteps: Record<Probe['suggestedAction']['action'], string> = { 'connect-oauth': 'connect', 'upload-export': 'export', 'upload-file': 'file' };

/** Where the site is now: what it runs on, in plain words, and the next step that follows. */
function SiteProbe() {
  const t = useT();
  const id = useId();
  const [url, setUrl] = useState('');
  const probe = useMutation({ mutationFn: (address: string) => dataOf(api.POST('/_cms/api/import/probe', { body: { url: address } })) });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    probe.mutate(url.trim());
  };
  const { at, elsewhere } = refusalOf(probe.error);
  return (
    <section aria-labelledby="import-probe">
      <h2 id="import-probe">{t('import.probe.title')}</h2>
      <form className="stacked-form" onSubmit={submit}>
        <TextSetting id={`${id}-url`} label={t('import.probe.url')} hint={t('import.probe.hint')} value={url} onChange={setUrl} issue={at('url')} required />
        <FormEnd refusal={elsewhere} submitLabel={t('import.probe.check')} pending={probe.isPending} />
      </form>
      {probe.data && <ProbeAnswer answer={probe.data} />}
    </section>
  );
}

function ProbeAnswer({ answer }: { answer: Probe }) {
  const t = useT();
  const title = typeof answer.detected.title === 'string' ? answer.detected.title : undefined;
  const counts = answer.detected.counts as { posts?: number; pages?: number; media?: number } | undefined;
  const { action, connectUrl } = answer.suggestedAction;
  return (
    <div className="import-found" role="status" aria-label={t('import.probe.found')}>
      <p>
        <strong>{t('import.probe.platform', { platform: answer.platform === 'wordpress.com' ? 'hosted' : answer.platform, title: title ?? answer.url })}</strong>
      </p>
      {counts && <p>{t('import.probe.counts', { posts: counts.posts ?? 0, pages: counts.pages ?? 0, media: counts.media ?? 0 })}</p>}
      <p>{t('import.probe.next', { action: nextSteps[action] })}</p>
      {action === 'connect-oauth' && connectUrl && (
        <p>
          <a className="react-aria-Button primary" href={connectUrl}>
            {t('import.probe.connect')}
          </a>
        </p>
      )}
    </div>
  );
}

/** The export file sent with its progress, then analysed by the server: the review follows. */
function ExportUpload() {
  const t = useT();
  const id = useId();
  const navigate = importRoute.useNavigate();
  const [file, setFile] = useState<File>();
  const [sent, setSent] = useState<{ loaded: number; total: number }>();
  const upload = useMutation({
    mutationFn: (chosen: File) => {
      const form = new FormData();
      form.append('file', chosen);
      return uploadWithProgress<Schemas['ImportAnalysis']>('/_cms/api/import/legacy/analyze', form, (loaded, total) => setSent({ loaded, total }));
    },
    onSuccess: (analysis) => void navigate({ search: { analysis: analysis.analysisId } }),
    onSettled: () => setSent(undefined),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (file) upload.mutate(file);
  };
  const megabytes = (bytes: number) => Math.round((bytes / 1_048_576) * 10) / 10;
  const refusal = upload.error ? (refusalOf(upload.error).at('file') ?? messageOf(upload.error)) : undefined;
  return (
    <section aria-labelledby="import-upload">
      <h2 id="import-upload">{t('import.upload.title')}</h2>
      <p>{t('import.upload.about')}</p>
      <form className="stacked-form" onSubmit={submit}>
        <div className="setting">
          <label htmlFor={`${id}-file`}>{t('import.upload.file')}</label>
          <input
            id={`${id}-file`}
            type="file"
            accept=".xml,application/xml,text/xml"
            required
            aria-describedby={`${id}-file-error`}
            aria-invalid={refusal ? true : undefined}
            onChange={(event) => setFile(event.target.files?.[0])}
          />
          <FieldIssue id={`${id}-file-error`} message={refusal} />
        </div>
        {sent && (
          <div className="import-progress">
            <progress max={sent.total} value={sent.loaded} aria-label={t('import.upload.progress')} />
            <span>{sent.loaded < sent.total ? t('import.upload.sent', { sent: megabytes(sent.loaded), total: megabytes(sent.total) }) : t('import.upload.analysing')}</span>
          </div>
        )}
        <div className="dialog-buttons">
          <Button type="submit" className="react-aria-Button primary" isDisabled={upload.isPending || !file}>
            {t('import.upload.submit')}
          </Button>
        </div>
      </form>
    </section>
  );
}
