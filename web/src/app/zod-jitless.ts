/**
 * What `import ... from 'zod'` means in the browser build (web/vite.config.ts aliases it here):
 * zod, told first not to compile parsers with `new Function`. zod finds out whether it may by
 * trying, and under the Content-Security-Policy (no 'unsafe-eval') the try is refused and reported
 * as a violation; its parsers without eval are the ones the policy would leave it anyway. Being
 * zod's only way into the browser, this keeps zod out of every route that does not use it.
 */
import * as z from 'zod/v4';

z.config({ jitless: true });

export * from 'zod/v4';
export { z };
export default z;
