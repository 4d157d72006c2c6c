/** English texts of the account feature (merged into the flat key space; see shared/i18n/features.ts). */
export const accountEn = {
} as const;

export type AccountMessages = { readonly [K in keyof typeof accountEn]: string };
