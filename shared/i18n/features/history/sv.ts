import type { HistoryMessages } from './en';

/** Swedish texts of history playback of a unit's route: exactly the English keys (the type checks it). */
export const historySv: HistoryMessages = {
};
