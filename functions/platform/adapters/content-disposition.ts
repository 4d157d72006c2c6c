/**
 * The Content-Disposition a viewed file is answered with, the same on S3 (a presigned GET's
 * `response-content-disposition`) and in the embedded runtime: inline, or an attachment under a
 * name of ours (letters, digits, `.`, `_`, `-`), which needs no quoting rules beyond the quotes.
 */
const SAFE_NAME = /^[A-Za-z0-9._-]{1,120}$/;

export function contentDisposition(downloadName: string | undefined): string {
  if (downloadName === undefined) return 'inline';
  if (!SAFE_NAME.test(downloadName)) throw new Error(`download name ${JSON.stringify(downloadName)} is not one of ours`);
  return `attachment; filename="${downloadName}"`;
}
