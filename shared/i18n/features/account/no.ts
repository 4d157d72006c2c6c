import type { AccountMessages } from './en';

/** Norwegian texts of the account feature: exactly the English keys (the type checks it). */
export const accountNo: AccountMessages = {
};
