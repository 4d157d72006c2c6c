import type { AccountMessages } from './en';

/** Swedish texts of the account feature: exactly the English keys (the type checks it). */
export const accountSv: AccountMessages = {
};
