import type { UnitsMessages } from './en';

/** Swedish texts of the units list: exactly the English keys (the type checks it). */
export const unitsSv: UnitsMessages = {
};
