/** English texts of the email feature (merged into the flat key space; see shared/i18n/features.ts). */
export const emailEn = {
} as const;

export type EmailMessages = { readonly [K in keyof typeof emailEn]: string };
