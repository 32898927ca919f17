import type { ContentCollection } from '../../api/client';
import { useT, type Translate } from '../../i18n/i18n';
import { diffWords, portableTextPlain } from './diff';
import type { NumberedRevision } from './Revisions';

/** Field types whose values read as running text: compared word by word. */
const textTypes = new Set(['string', 'text', 'slug', 'url', 'portableText']);

interface Compared {
  key: string;
  label: string;
  type: string;
  before: unknown;
  after: unknown;
}

/** The text a value reads as: Portable Text by its blocks' plain text, the rest as given. */
function asText(type: string, value: unknown): string {
  if (type === 'portableText') return portableTextPlain(value);
  return typeof value === 'string' ? value : '';
}

function shown(value: unknown, t: Translate): string {
  if (value === undefined || value === null || value === '') return t('revisions.empty');
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}

/** Every field of the collection (and the slug), the changed ones first, each with what changed. */
export function FieldComparison({ collection, before, after }: { collection: ContentCollection; before: NumberedRevision; after: NumberedRevision }) {
  const t = useT();
  const rows: Compared[] = [
    { key: '_slug', label: t('revisions.slug'), type: 'slug', before: before.slug, after: after.slug },
    ...collection.fields.map((field) => ({ key: field.slug, label: field.label, type: field.type, before: before.data[field.slug], after: after.data[field.slug] })),
  ];
  const changed = rows.filter((row) => JSON.stringify(row.before) !== JSON.stringify(row.after));
  const unchanged = rows.filter((row) => !changed.includes(row));
  return (
    <>
      {changed.length === 0 && <p>{t('revisions.noChange')}</p>}
      <ul className="field-diffs">
        {changed.map((row) => (
          <li key={row.key} className="field-diff field-changed">
            <h3>
              {row.label} <span className="diff-state">{t('revisions.changed')}</span>
            </h3>
            {textTypes.has(row.type) ? <WordDiff before={asText(row.type, row.before)} after={asText(row.type, row.after)} /> : <BeforeAfter before={row.before} after={row.after} />}
          </li>
        ))}
        {unchanged.map((row) => (
          <li key={row.key} className="field-diff">
            <h3>
              {row.label} <span className="diff-state">{t('revisions.unchanged')}</span>
            </h3>
            <p className="diff-value">{shown(row.after, t)}</p>
          </li>
        ))}
      </ul>
    </>
  );
}

/** The later text with what was removed struck through and what was added marked, word by word. */
function WordDiff({ before, after }: { before: string; after: string }) {
  const t = useT();
  return (
    <p className="diff-text">
      {diffWords(before, after).map((part, index) =>
        part.kind === 'same' ? (
          <span key={index}>{part.text}</span>
        ) : part.kind === 'removed' ? (
          <del key={index}>
            <span className="visually-hidden">{t('revisions.removedText')} </span>
            {part.text}
          </del>
        ) : (
          <ins key={index}>
            <span className="visually-hidden">{t('revisions.addedText')} </span>
            {part.text}
          </ins>
        ),
      )}
    </p>
  );
}

/** Values that are not text (numbers, choices, references, JSON) side by side. */
function BeforeAfter({ before, after }: { before: unknown; after: unknown }) {
  const t = useT();
  return (
    <dl className="diff-pair">
      <dt>{t('revisions.before')}</dt>
      <dd>
        <pre>{shown(before, t)}</pre>
      </dd>
      <dt>{t('revisions.after')}</dt>
      <dd>
        <pre>{shown(after, t)}</pre>
      </dd>
    </dl>
  );
}
