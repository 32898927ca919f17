import { defineRoute, paramsWithBody } from '../http/route.ts';
import { deleteMedia, getMedia, listMedia, registerMedia, updateMedia } from './operations.ts';
import {
  DirectUploadParams,
  DirectUploadResponse,
  FileParams,
  FileQuery,
  ListMediaQuery,
  MediaItemResponse,
  MediaDeletedResponse,
  MediaListResponse,
  MediaParams,
  MediaUsageQuery,
  MediaUsageResponse,
  RegisterMediaBody,
  UpdateMediaBody,
  UploadResponse,
  UploadUrlBody,
  UploadUrlResponse,
} from './schemas.ts';
import { serveMediaFile } from './serve.ts';
import { createUploadUrl, receiveDirectUpload, uploadMedia } from './upload.ts';
import { mediaUsage } from './usage.ts';

const tag = 'Media';

/** Uploads may carry a file up to MEDIA_UPLOAD_LIMIT, plus room for the multipart framing and text fields. */
const uploadLimit = { fromConfig: (config: { media: { uploadLimit: number } }) => config.media.uploadLimit + 64 * 1024, description: 'MEDIA_UPLOAD_LIMIT (default 100 MB) plus 64 KiB' };
const directUploadLimit = { fromConfig: (config: { media: { uploadLimit: number } }) => config.media.uploadLimit, description: 'MEDIA_UPLOAD_LIMIT (default 100 MB)' };

export const mediaRoutes = [
  defineRoute({ method: 'get', path: '/media', tag, summary: 'Media items, newest first; mimeType and q narrow them', operation: listMedia, query: ListMediaQuery, response: MediaListResponse }),
  defineRoute({
    method: 'post',
    path: '/media',
    tag,
    summary: 'Register a record for an object sent by a direct upload (storageKey from POST /media/upload-url)',
    operation: registerMedia,
    body: RegisterMediaBody,
    status: 201,
    response: MediaItemResponse,
  }),
  defineRoute({
    method: 'post',
    path: '/media/upload',
    tag,
    summary: 'Upload a file (multipart: file, optional alt and caption); the same bytes again answer 200 with the existing item',
    operation: uploadMedia,
    body: { multipart: { limit: uploadLimit, parts: { file: 'file', alt: 'text', caption: 'text' } } },
    input: ({ body }) => ({ parts: body }),
    statusOf: (output) => (output.created ? 201 : 200),
    response: UploadResponse,
  }),
  defineRoute({
    method: 'post',
    path: '/media/upload-url',
    tag,
    summary: 'Where to send a large file directly: a presigned S3 PUT, or a signed single-use Folio URL for local storage',
    operation: createUploadUrl,
    body: UploadUrlBody,
    response: UploadUrlResponse,
  }),
  defineRoute({
    method: 'put',
    path: '/media/upload/:grant',
    tag,
    summary: 'The bytes of a direct upload to local storage (the URL from POST /media/upload-url is the credential)',
    operation: receiveDirectUpload,
    params: DirectUploadParams,
    body: { bytes: { limit: directUploadLimit } },
    input: paramsWithBody,
    response: DirectUploadResponse,
  }),
  defineRoute({
    method: 'get',
    path: '/media/file/:key{.+}',
    tag,
    summary: 'The file (public: keys are unguessable); w, h, fit, format and q serve a resized or converted image',
    operation: serveMediaFile,
    params: FileParams,
    query: FileQuery,
    // Sites on other origins embed these files: the API's same-origin resource policy does not apply.
    result: { kind: 'bytes', source: (file) => file, cacheControl: 'public, max-age=31536000, immutable', headers: { 'cross-origin-resource-policy': 'cross-origin' } },
  }),
  defineRoute({ method: 'get', path: '/media/:id', tag, summary: 'Get a media item', operation: getMedia, params: MediaParams, response: MediaItemResponse }),
  defineRoute({
    method: 'get',
    path: '/media/:id/usage',
    tag,
    summary: 'The entries whose image, file or Portable Text fields name the item (trashed ones too), by entry id',
    operation: mediaUsage,
    params: MediaParams,
    query: MediaUsageQuery,
    response: MediaUsageResponse,
  }),
  defineRoute({ method: 'put', path: '/media/:id', tag, summary: 'Change alt text, caption, title or recorded dimensions', operation: updateMedia, params: MediaParams, body: UpdateMediaBody, response: MediaItemResponse }),
  defineRoute({ method: 'delete', path: '/media/:id', tag, summary: 'Delete a media item, its file and its derived images', operation: deleteMedia, params: MediaParams, response: MediaDeletedResponse }),
];
