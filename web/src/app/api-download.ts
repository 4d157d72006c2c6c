/**
 * Files behind API routes that need the login, apart from the API client so that the login route
 * does not carry them.
 */
import { failure, readJson, sendAuthorised } from './api-client';

/** The file name a Content-Disposition header gives (RFC 6266: `filename*` first), or null. */
export function attachmentName(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // Not percent-encoding after all: the plain name, if any.
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/.exec(header);
  return plain?.[1]?.trim() || null;
}

/**
 * A file behind an API route that needs the login (a report export's portal link), following its
 * redirect to the file: the bytes and the name the answer gives it. Failures as apiRequest's.
 */
export async function apiDownload(path: string): Promise<{ blob: Blob; name: string | null }> {
  const response = await sendAuthorised('GET', path, {});
  if (!response.ok) throw await failure(response, path, await readJson(response));
  return { blob: await response.blob(), name: attachmentName(response.headers.get('Content-Disposition')) };
}
