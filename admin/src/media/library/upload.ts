import type { MediaItem } from '../pick';

/** How a file's upload ends: the item (new, or the one already holding the same bytes), or why not. */
export type UploadResult = { ok: true; item: MediaItem } | { ok: false; message: string };

/**
 * Sends one file to `POST /media/upload` (multipart, the session cookie), reporting the share sent.
 * XMLHttpRequest, not fetch: fetch reports no upload progress. The API's refusal (type not allowed,
 * too large) comes back as its message, so the library names it beside the file.
 */
export function uploadFile(file: File, onProgress: (sent: number) => void, signal?: AbortSignal): Promise<UploadResult> {
  return new Promise((resolve) => {
    const request = new XMLHttpRequest();
    request.open('POST', '/_cms/api/media/upload');
    request.withCredentials = true;
    request.responseType = 'json';
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    });
    request.addEventListener('load', () => {
      const body = request.response as { success?: boolean; data?: { item: MediaItem }; error?: { message?: string } } | null;
      if (request.status < 300 && body?.data) resolve({ ok: true, item: body.data.item });
      else resolve({ ok: false, message: body?.error?.message ?? `${request.status} ${request.statusText}` });
    });
    // No answer at all: the connection closed (the server stops reading a body over its limit).
    request.addEventListener('error', () => resolve({ ok: false, message: '' }));
    request.addEventListener('abort', () => resolve({ ok: false, message: '' }));
    signal?.addEventListener('abort', () => request.abort());
    const form = new FormData();
    form.append('file', file, file.name);
    request.send(form);
  });
}
