import { defineRoute } from '../http/route.ts';
import { exportSite, importSite } from './operations.ts';
import { ImportSiteHeaders, ImportSiteQuery, RestoreResultSchema } from './schemas.ts';

const tag = 'Site archive';

/** No practical limit: the upload goes to a temporary file, never into memory. */
const archiveUploadLimit = 1024 ** 4;

export const siteArchiveRoutes = [
  defineRoute({
    method: 'get',
    path: '/site/export',
    tag,
    summary: 'The whole site as an archive (.tar.gz: records as NDJSON, media files), from one snapshot, made while it is sent',
    operation: exportSite,
    result: { kind: 'download', contentType: 'application/gzip', download: (archive) => archive },
  }),
  defineRoute({
    method: 'post',
    path: '/site/import',
    tag,
    summary: 'Restore a site archive (the raw .tar.gz as the body) into this empty site, or beside its records with merge=true',
    operation: importSite,
    query: ImportSiteQuery,
    headers: ImportSiteHeaders,
    body: { bytes: { limit: archiveUploadLimit } },
    input: ({ body, query, headers }) => ({ body, merge: query.merge, passphrase: headers['folio-archive-passphrase'] }),
    response: RestoreResultSchema,
  }),
];
