import type { EmailMessages } from './en';

/** Swedish texts of the email feature: exactly the English keys (the type checks it). */
export const emailSv: EmailMessages = {
};
