import type { RegistrationMessages } from './en';

/** Norwegian texts of the registration feature: exactly the English keys (the type checks it). */
export const registrationNo: RegistrationMessages = {
};
