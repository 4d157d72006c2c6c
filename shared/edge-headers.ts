/**
 * The headers CloudFront adds to every request it forwards to the API (the `/api/*` behavior), named
 * once for the stack that configures them and the functions that read them.
 */

/**
 * Carries the origin secret (a custom origin header; CloudFront replaces a viewer's own header of
 * that name). A request without it did not come through CloudFront: somebody called the
 * execute-api endpoint directly, where every other header is whatever the caller chose.
 */
export const ORIGIN_SECRET_HEADER = 'x-origin-verify';

/**
 * The viewer's IP address as CloudFront saw it, written by the viewer-request CloudFront Function
 * over any value the viewer sent. Trusted only together with the origin secret.
 */
export const VIEWER_ADDRESS_HEADER = 'x-viewer-address';
