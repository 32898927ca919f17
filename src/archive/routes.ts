import { DeletedResponse } from '../core/schemas.ts';
import { apiBasePath } from '../http/paths.ts';
import { defineRoute } from '../http/route.ts';
import { archivePath, deleteSiteExport, exportPath, downloadSiteExport, getSiteExport, listSiteExports, startSiteExport } from './export-operations.ts';
import { exportSite, importSite } from './operations.ts';
import { ExportListQuery, ExportParams, ImportSiteHeaders, ImportSiteQuery, RestoreResultSchema, SiteExportListResponse, SiteExportResponse } from './schemas.ts';

const tag = 'Site archive';

/** No practical limit: the upload goes to a temporary file, never into memory. */
const archiveUploadLimit = 1024 ** 4;

export const siteArchiveRoutes = [
  defineRoute({
    method: 'get',
    path: '/site/export',
    tag,
    summary: 'The whole site as an archive (.tar.gz: records as NDJSON, media files), from one snapshot, made while it is sent. For a large site, POST /site/exports makes it as a job instead',
    operation: exportSite,
    result: { kind: 'download', contentType: 'application/gzip', download: (archive) => archive },
  }),
  defineRoute({
    method: 'post',
    path: '/site/exports',
    tag,
    summary: 'Make the site archive as a job (for large sites): 202 at once, Location where its progress is read; once done, the archive is downloaded from archive.url for 24 hours',
    operation: startSiteExport,
    response: SiteExportResponse,
    accepted: { schema: SiteExportResponse, answer: (item) => ({ location: `${apiBasePath}${exportPath(item.id)}`, data: { item } }) },
  }),
  defineRoute({ method: 'get', path: '/site/exports', tag, summary: 'The newest exports made as jobs, newest first', operation: listSiteExports, query: ExportListQuery, response: SiteExportListResponse }),
  defineRoute({ method: 'get', path: exportPath(':id'), tag, summary: 'An export job: its state, progress (stored about once a second) and, once made, its archive', operation: getSiteExport, params: ExportParams, response: SiteExportResponse }),
  defineRoute({
    method: 'get',
    path: archivePath(':id'),
    tag,
    summary: "An export job's archive, once it has succeeded (409 before, 404 once expired); Range requests and its SHA-256 as a strong ETag",
    operation: downloadSiteExport,
    params: ExportParams,
    result: { kind: 'bytes', source: (archive) => archive, cacheControl: 'private, no-store' },
  }),
  defineRoute({ method: 'delete', path: exportPath(':id'), tag, summary: 'Delete an export and its archive now (409 while it runs)', operation: deleteSiteExport, params: ExportParams, response: DeletedResponse }),
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
