/** English texts of the registration feature (merged into the flat key space; see shared/i18n/features.ts). */
export const registrationEn = {
} as const;

export type RegistrationMessages = { readonly [K in keyof typeof registrationEn]: string };
