/** English texts of history playback of a unit's route (merged into the flat key space; see shared/i18n/index.ts). */
export const historyEn = {
} as const;

export type HistoryMessages = { readonly [K in keyof typeof historyEn]: string };
