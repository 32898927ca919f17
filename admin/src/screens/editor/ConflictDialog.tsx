import { useState } from 'react';
import { Button, Dialog, Heading, Label, Modal, Radio, RadioGroup } from 'react-aria-components';
import type { ContentCollection } from '../../api/client';
import { useT } from '../../i18n/i18n';
import type { EntrySession, SessionState } from './session';
import { bothTexts } from './values';

type Choice = 'theirs' | 'mine' | 'both';

/** A value as the dialog shows it: text as it is, anything else as JSON. */
function shown(value: unknown): string {
  if (value === undefined || value === null || value === '') return '—';
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}

/**
 * Someone else saved the fields this editor changed too. Each such field is shown both ways, theirs
 * and mine, to keep one or (for text) both; the choice is saved on their version. Until it is made
 * nothing is sent and nothing typed is dropped (the edits stay in the session and the browser).
 */
export function ConflictDialog({ collection, session, state }: { collection: ContentCollection; session: EntrySession; state: SessionState }) {
  const t = useT();
  const [choices, setChoices] = useState<Record<string, Choice>>({});
  const conflict = state.conflict;
  const keep = () => {
    if (!conflict) return;
    const chosen: Record<string, unknown> = {};
    for (const { slug, theirs, mine } of conflict.fields) {
      const field = collection.fields.find((candidate) => candidate.slug === slug)!;
      const choice = choices[slug] ?? 'mine';
      chosen[slug] = choice === 'theirs' ? theirs : choice === 'mine' ? mine : bothTexts(field, theirs, mine);
    }
    setChoices({});
    session.resolveConflict(chosen);
  };
  return (
    <Modal isOpen={conflict !== undefined} isDismissable={false} className="editor-modal">
      <Dialog className="editor-dialog editor-dialog-wide">
        <Heading slot="title">{t('editor.conflict.title')}</Heading>
        <p>{t('editor.conflict.body')}</p>
        {conflict?.fields.map(({ slug, theirs, mine }) => {
          const field = collection.fields.find((candidate) => candidate.slug === slug)!;
          const text = field.type === 'string' || field.type === 'text';
          return (
            <section key={slug} className="conflict-field" aria-labelledby={`conflict-${slug}`}>
              <h3 id={`conflict-${slug}`}>{field.label}</h3>
              <div className="conflict-values">
                <div>
                  <h4>{t('editor.conflict.theirs')}</h4>
                  <pre className="conflict-value">{shown(theirs)}</pre>
                </div>
                <div>
                  <h4>{t('editor.conflict.mine')}</h4>
                  <pre className="conflict-value">{shown(mine)}</pre>
                </div>
              </div>
              <RadioGroup className="conflict-choice" orientation="horizontal" value={choices[slug] ?? 'mine'} onChange={(value) => setChoices({ ...choices, [slug]: value as Choice })}>
                <Label>{t('editor.conflict.keep', { field: field.label })}</Label>
                <Radio value="mine">{t('editor.conflict.keepMine')}</Radio>
                <Radio value="theirs">{t('editor.conflict.keepTheirs')}</Radio>
                {text && <Radio value="both">{t('editor.conflict.keepBoth')}</Radio>}
              </RadioGroup>
            </section>
          );
        })}
        <Button className="primary" onPress={keep}>
          {t('editor.conflict.apply')}
        </Button>
      </Dialog>
    </Modal>
  );
}
