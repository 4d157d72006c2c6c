import type { Language } from '../schemas/common';

/**
 * The portal languages, without importing zod: the browser's entry chunk needs this list and must
 * stay small. test/i18n/resources.test.ts checks it equals `languages` in shared/schemas/common.ts.
 */
export const LANGUAGES = ['en', 'sv', 'no'] as const satisfies readonly Language[];
