import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useId, useState, type FormEvent } from 'react';
import { ApiError, api, dataOf, linesOf, refusalOf, type Schemas } from '../../api/client';
import { useNumberFormat, useT } from '../../i18n/i18n';
import { FieldIssue } from '../../shell/FieldIssue';
import { FormEnd } from '../../shell/FormEnd';
import { messageOf } from '../../shell/notice';
import { firstPeopleQuery } from '../people/queries';
import type { ImportJob } from './job-words';
import { collectionsQuery } from '../../api/queries';
import { analysisQuery, importJobsQuery } from './queries';

const importRoute = getRouteApi('/import');

type Analysis = Schemas['ImportAnalysis'];
type PostType = Analysis['postTypes'][number];

interface Choices {
  /** Post types to import, by name. */
  types: ReadonlySet<string>;
  /** Source author login → user id; absent: a guest byline. */
  authors: Readonly<Record<string, string>>;
  includeTaxonomies: boolean;
  includeMenus: boolean;
  includeMedia: boolean;
}

/** The analysis of an export, reviewed: what goes where, whose entries are whose, what comes along. */
export function AnalysisReview({ id }: { id: string }) {
  const t = useT();
  const analysis = useQuery(analysisQuery(id));
  const people = useQuery(firstPeopleQuery);
  if (analysis.isError) {
    return (
      <div role="alert">
        <p>{analysis.error instanceof ApiError && analysis.error.status === 404 ? t('import.review.gone') : messageOf(analysis.error)}</p>
        <Link to="/import" search={{}}>
          {t('import.startAgain')}
        </Link>
      </div>
    );
  }
  if (!analysis.data || !people.data) return <p>{t('loading')}</p>;
  return <Review analysis={analysis.data} people={people.data.items} />;
}

function defaults(analysis: Analysis, people: readonly Schemas['User'][]): Choices {
  const byEmail = new Map(people.map((person) => [person.email.toLowerCase(), person.id]));
  const authors: Record<string, string> = {};
  for (const author of analysis.authors) {
    const same = byEmail.get(author.email.toLowerCase());
    if (author.email !== '' && same) authors[author.login] = same;
  }
  return {
    types: new Set(analysis.postTypes.filter((type) => type.status !== 'incompatible').map((type) => type.name)),
    authors,
    includeTaxonomies: true,
    includeMenus: true,
    includeMedia: false,
  };
}

function Review({ analysis, people }: { analysis: Analysis; people: readonly Schemas['User'][] }) {
  const t = useT();
  const id = useId();
  const number = useNumberFormat();
  const queryClient = useQueryClient();
  const navigate = importRoute.useNavigate();
  const [choices, setChoices] = useState(() => defaults(analysis, people));
  const set = (change: Partial<Choices>) => setChoices((previous) => ({ ...previous, ...change }));

  const start = useMutation({
    mutationFn: async (chosen: Choices): Promise<ImportJob> => {
      const enabled = analysis.postTypes.filter((type) => chosen.types.has(type.name));
      if (enabled.length > 0) {
        const postTypes = analysis.postTypes.map((type) => ({ name: type.name, collection: type.collection, enabled: chosen.types.has(type.name) }));
        await dataOf(api.POST('/_cms/api/import/legacy/prepare', { body: { analysisId: analysis.analysisId, postTypes } }));
        // Prepare may have made collections: the navigation and the lists read them again.
        await queryClient.invalidateQueries({ queryKey: collectionsQuery.queryKey });
      }
      const body = {
        analysisId: analysis.analysisId,
        postTypeMappings: Object.fromEntries(enabled.map((type) => [type.name, { collection: type.collection }])),
        authorMapping: chosen.authors,
        options: { includeTaxonomies: chosen.includeTaxonomies, includeMenus: chosen.includeMenus, includeMedia: chosen.includeMedia },
        stream: true,
      };
      // The import runs in the server whether this page stays or not: its first line names the job.
      for await (const job of linesOf<ImportJob>(api.POST('/_cms/api/import/legacy/execute', { body, parseAs: 'stream' }))) return job;
      throw new Error(t('import.review.noAnswer'));
    },
    onSuccess: async (job) => {
      await queryClient.invalidateQueries({ queryKey: importJobsQuery.queryKey });
      await navigate({ search: { job: job.id } });
    },
  });
  const { at, elsewhere } = refusalOf(start.error);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    start.mutate(choices);
  };
  const attachments = analysis.attachments.images + analysis.attachments.video + analysis.attachments.audio + analysis.attachments.other;
  const toggleType = (name: string, on: boolean) => {
    const types = new Set(choices.types);
    if (on) types.add(name);
    else types.delete(name);
    set({ types });
  };

  return (
    <form className="stacked-form" onSubmit={submit}>
      <section aria-labelledby={`${id}-site`}>
        <h2 id={`${id}-site`}>{t('import.review.site', { title: analysis.site.title || analysis.site.url })}</h2>
        <p>{[analysis.site.url, analysis.version && t('import.review.version', { version: analysis.version }), analysis.site.language && t('import.review.language', { language: analysis.site.language })].filter(Boolean).join(' · ')}</p>
      </section>

      <section aria-labelledby={`${id}-types`}>
        <h2 id={`${id}-types`}>{t('import.review.types')}</h2>
        <table className="data-table" aria-labelledby={`${id}-types`}>
          <thead>
            <tr>
              <th scope="col">{t('import.review.type')}</th>
              <th scope="col">{t('import.review.items')}</th>
              <th scope="col">{t('import.review.target')}</th>
            </tr>
          </thead>
          <tbody>
            {analysis.postTypes.map((type) => (
              <tr key={type.name}>
                <th scope="row">
                  <label className="check-label">
                    <input type="checkbox" checked={choices.types.has(type.name)} disabled={type.status === 'incompatible'} onChange={(event) => toggleType(type.name, event.target.checked)} />{' '}
                    {t('import.review.importType', { type: type.name })}
                  </label>
                </th>
                <td>{number(type.count)}</td>
                <td>
                  <TargetOf type={type} />
                  <FieldIssue id={`${id}-type-${type.name}`} message={at(`postTypeMappings.${type.name}`)} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {analysis.skipped.length > 0 && (
          <>
            <h3>{t('import.review.skipped')}</h3>
            <ul>
              {analysis.skipped.map((skipped) => (
                <li key={skipped.postType}>{t('import.review.skippedItem', { count: skipped.count, type: skipped.postType, reason: skipped.reason })}</li>
              ))}
            </ul>
          </>
        )}
      </section>

      {analysis.authors.length > 0 && (
        <section aria-labelledby={`${id}-authors`}>
          <h2 id={`${id}-authors`}>{t('import.review.authors')}</h2>
          <p>{t('import.review.authorsAbout')}</p>
          <table className="data-table" aria-labelledby={`${id}-authors`}>
            <thead>
              <tr>
                <th scope="col">{t('import.review.author')}</th>
                <th scope="col">{t('import.review.items')}</th>
                <th scope="col">{t('import.review.owner')}</th>
              </tr>
            </thead>
            <tbody>
              {analysis.authors.map((author) => (
                <tr key={author.login}>
                  <th scope="row">
                    {author.displayName || author.login}
                    {author.email && <span className="setting-hint"> {author.email}</span>}
                  </th>
                  <td>{number(author.posts)}</td>
                  <td>
                    <select
                      className="field-input"
                      aria-label={t('import.review.ownerOf', { name: author.displayName || author.login })}
                      aria-describedby={`${id}-author-${author.login}`}
                      value={choices.authors[author.login] ?? ''}
                      onChange={(event) => {
                        const { [author.login]: _left, ...others } = choices.authors;
                        set({ authors: event.target.value === '' ? others : { ...others, [author.login]: event.target.value } });
                      }}
                    >
                      <option value="">{t('import.review.guest')}</option>
                      {people.map((person) => (
                        <option key={person.id} value={person.id}>
                          {person.name}
                        </option>
                      ))}
                    </select>
                    <FieldIssue id={`${id}-author-${author.login}`} message={at(`authorMapping.${author.login}`)} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}

      <section aria-labelledby={`${id}-along`}>
        <h2 id={`${id}-along`}>{t('import.review.along')}</h2>
        <fieldset className="setting choice-list">
          <legend className="visually-hidden">{t('import.review.along')}</legend>
          {analysis.taxonomies.length > 0 && (
            <label className="check-label">
              <input type="checkbox" checked={choices.includeTaxonomies} onChange={(event) => set({ includeTaxonomies: event.target.checked })} />{' '}
              {t('import.review.taxonomies', { terms: analysis.taxonomies.reduce((sum, taxonomy) => sum + taxonomy.terms, 0), names: analysis.taxonomies.map((taxonomy) => taxonomy.name).join(', ') })}
            </label>
          )}
          {analysis.menus.length > 0 && (
            <label className="check-label">
              <input type="checkbox" checked={choices.includeMenus} onChange={(event) => set({ includeMenus: event.target.checked })} />{' '}
              {t('import.review.menus', { menus: analysis.menus.length, items: analysis.menus.reduce((sum, menu) => sum + menu.items, 0) })}
            </label>
          )}
          {attachments > 0 && (
            <label className="check-label">
              <input type="checkbox" checked={choices.includeMedia} onChange={(event) => set({ includeMedia: event.target.checked })} /> {t('import.review.media', { files: attachments })}
            </label>
          )}
        </fieldset>
        <ul>
          {analysis.reusableBlocks > 0 && <li>{t('import.review.blocks', { count: analysis.reusableBlocks })}</li>}
          {analysis.comments > 0 && <li>{t('import.review.comments', { count: analysis.comments })}</li>}
        </ul>
      </section>

      <FormEnd refusal={elsewhere} submitLabel={t('import.review.start')} pending={start.isPending || choices.types.size === 0} />
      <p>
        <Link to="/import" search={{}}>
          {t('import.startAgain')}
        </Link>
      </p>
    </form>
  );
}

/** Where a post type's items go, and what the import changes there first. */
function TargetOf({ type }: { type: PostType }) {
  const t = useT();
  if (type.status === 'incompatible') {
    return <span>{t('import.review.conflicts', { collection: type.collection, fields: type.conflicts.map((conflict) => t('import.review.conflict', { field: conflict.field, existing: conflict.existingType, wanted: conflict.wantedType })).join('; ') })}</span>;
  }
  const fields = type.fieldsToAdd.map((field) => field.label || field.slug).join(', ');
  return <span>{t('import.review.targetStatus', { status: type.status, collection: type.collection, fields })}</span>;
}
