import { lazy, Suspense, useState } from 'react';
import { Button, Toolbar } from 'react-aria-components';
import type { ContentCollection } from '../../api/client';
import type { BulkAction } from '../../api/queries';
import { useT } from '../../i18n/i18n';
import { canPublish } from '../../roles';

// The dialog (a modal, its focus trap and overlay) loads with the first action asked for, not with the list.
const BulkConfirm = lazy(() => import('./BulkConfirm'));

interface Props {
  collection: ContentCollection;
  role: number;
  trash: boolean;
  selected: string[];
  /** Titles by id, to name the entries an action was refused for. */
  titles: ReadonlyMap<string, string>;
  onDone: () => void;
}

/**
 * What the selection can do, as the role allows it (publishing is an Author's) and the view offers it
 * (restore and delete for good in the trash); each asks first, naming the count. The outcome stays
 * in a status line, with every refusal named.
 */
export function BulkBar({ collection, role, trash, selected, titles, onDone }: Props) {
  const t = useT();
  const [action, setAction] = useState<BulkAction | undefined>();
  const [outcome, setOutcome] = useState<{ text: string; failures: string[] } | undefined>();
  const actions: BulkAction[] = trash ? ['restore', 'delete'] : [...(canPublish(role) ? (['publish', 'unpublish'] as const) : []), 'trash'];
  return (
    <div className="bulk-area">
      {selected.length > 0 && (
        <Toolbar className="bulk-bar" aria-label={t('bulk.toolbar')}>
          <span className="bulk-count">{t('bulk.selected', { count: selected.length })}</span>
          {actions.map((name) => (
            <Button key={name} className={name === 'delete' || name === 'trash' ? 'react-aria-Button danger' : 'react-aria-Button'} onPress={() => setAction(name)}>
              {t(`bulk.${name}`)}
            </Button>
          ))}
        </Toolbar>
      )}
      <div role="status" className="bulk-outcome">
        {outcome && (
          <>
            <p>{outcome.text}</p>
            {outcome.failures.length > 0 && (
              <ul>
                {outcome.failures.map((failure) => (
                  <li key={failure}>{failure}</li>
                ))}
              </ul>
            )}
          </>
        )}
      </div>
      {action && (
        <Suspense fallback={null}>
          <BulkConfirm
            collection={collection}
            action={action}
            ids={selected}
            onClose={() => setAction(undefined)}
            onDone={(results) => {
              const failed = results.filter((result) => !result.ok);
              setOutcome({
                text: failed.length === 0 ? t(`bulk.done.${action}`, { count: results.length }) : t('bulk.partly', { failed: failed.length, count: results.length }),
                failures: failed.map((result) => t('bulk.failure', { title: titles.get(result.id) ?? result.id, reason: 'error' in result ? result.error.message : '' })),
              });
              setAction(undefined);
              onDone();
            }}
          />
        </Suspense>
      )}
    </div>
  );
}
