import { UPLOAD_FAILED, uploadProblem, type UploadBucket } from '../../../../shared/schemas/admin-uploads';

/**
 * Sends one image to POST /api/uploads/:bucket and resolves with its public URL. XMLHttpRequest
 * (not fetch) because only it reports upload progress; `onProgress` gets 0..100.
 * Rejects with an Error carrying the text to show: the spec's validation messages (checked here
 * first, and by the server from the file's bytes), the server's message, or 'Failed to upload image'.
 */
export function uploadImage(
  bucket: UploadBucket,
  file: File,
  onProgress?: (percent: number) => void,
  signal?: AbortSignal,
): Promise<string> {
  const problem = uploadProblem(file);
  if (problem) return Promise.reject(new Error(problem));
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/uploads/${encodeURIComponent(bucket)}`);
    xhr.responseType = 'json';
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress?.(Math.min(100, Math.round((event.loaded / event.total) * 100)));
    };
    xhr.onload = () => {
      const body = xhr.response as Partial<{ url: string; error: string; message: string }> | null;
      if (xhr.status >= 200 && xhr.status < 300 && typeof body?.url === 'string') {
        onProgress?.(100);
        resolve(body.url);
      } else {
        // Our route answers { error }; Fastify's own errors (e.g. too many files) carry { message }.
        reject(new Error(body?.error ?? body?.message ?? UPLOAD_FAILED));
      }
    };
    xhr.onerror = () => reject(new Error(UPLOAD_FAILED));
    xhr.onabort = () => reject(new DOMException('Upload cancelled', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    const form = new FormData();
    form.append('file', file);
    xhr.send(form);
  });
}
