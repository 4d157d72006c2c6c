/** English texts of the units list (merged into the flat key space; see shared/i18n/index.ts). */
export const unitsEn = {
} as const;

export type UnitsMessages = { readonly [K in keyof typeof unitsEn]: string };
