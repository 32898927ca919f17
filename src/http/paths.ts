/** Where the REST API is mounted; links Folio hands out (media URLs, upload URLs) start here. */
export const apiBasePath = '/_cms/api';
