/** English texts of the real-time map: unit panel, markers, popup, follow and the live connection (merged into the flat key space; see shared/i18n/index.ts). */
export const mapEn = {
} as const;

export type MapMessages = { readonly [K in keyof typeof mapEn]: string };
