import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from 'react-aria-components';
import { useT } from '../../i18n/i18n';
import { messageOf } from '../../shell/notice';

/** GET /schema as TypeScript: one interface per collection, for a site's own code. */
async function schemaTypeScript(): Promise<string> {
  const response = await fetch('/_cms/api/schema?format=typescript', { credentials: 'include' });
  if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
  return response.text();
}

/** The schema's TypeScript types, shown, copied to the clipboard, or downloaded as folio-schema.ts. */
export function TypeScriptExport() {
  const t = useT();
  const [copied, setCopied] = useState(false);
  const types = useQuery({ queryKey: ['collections', 'typescript'], queryFn: schemaTypeScript });
  const download = () => {
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([types.data ?? ''], { type: 'text/typescript' }));
    link.download = 'folio-schema.ts';
    link.click();
    URL.revokeObjectURL(link.href);
  };
  return (
    <section aria-labelledby="schema-types-heading" className="screen-section">
      <h2 id="schema-types-heading">{t('schema.types')}</h2>
      <p>{t('schema.types.about')}</p>
      {types.isError && <p role="alert">{messageOf(types.error)}</p>}
      {types.data !== undefined && (
        <>
          <div className="schema-types-actions">
            <Button
              className="react-aria-Button"
              onPress={() =>
                void navigator.clipboard.writeText(types.data).then(
                  () => setCopied(true),
                  () => setCopied(false),
                )
              }
            >
              {t('schema.types.copy')}
            </Button>
            <Button className="react-aria-Button" onPress={download}>
              {t('schema.types.download')}
            </Button>
            <span role="status">{copied ? t('schema.types.copied') : ''}</span>
          </div>
          <pre className="schema-types" tabIndex={0} aria-label={t('schema.types')}>
            {types.data}
          </pre>
        </>
      )}
    </section>
  );
}
