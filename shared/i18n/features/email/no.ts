import type { EmailMessages } from './en';

/** Norwegian texts of the email feature: exactly the English keys (the type checks it). */
export const emailNo: EmailMessages = {
};
