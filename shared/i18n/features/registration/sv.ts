import type { RegistrationMessages } from './en';

/** Swedish texts of the registration feature: exactly the English keys (the type checks it). */
export const registrationSv: RegistrationMessages = {
};
