/**
 * The alarm receiver form's state and rules (spec section 5), kept apart from the markup so they
 * can be tested: what the form starts with (a new receiver, an existing one, a picked user), the
 * field errors shown, when Save is disabled, and the body it sends.
 */
import { alarmReceiverFieldErrors, isValidEmail, type AlarmMember, type AlarmReceiver, type AlarmReceiverSave } from '../../../../shared/schemas/alarms';
import { countryOfCallingCode, formatPhone, getPhoneCallingCode, phoneError } from '../../../../shared/validators/phone';

export interface AlarmFormValues {
  id: string | null;
  memberId: string | null;
  name: string;
  /** As typed; an invalid address is stored (sent) as none. */
  email: string;
  /** ISO 3166 code of the chosen country; the dial code follows from it and is not editable. */
  country: string;
  dialCode: string;
  phone: string;
  push: boolean;
  security: boolean;
  func: boolean;
}

/** A new receiver's country: the viewer's (Sweden, or Norway in Norwegian: defaultPhoneCountry). */
export function newReceiverValues(country: string): AlarmFormValues {
  return { id: null, memberId: null, name: '', email: '', country, dialCode: dialCodeOf(country), phone: '', push: false, security: true, func: true };
}

const dialCodeOf = (country: string): string => getPhoneCallingCode(country) ?? '46';

/** A picked user fills the form; opening the picker turned both alarm switches off (spec section 2). */
export function memberValues(member: AlarmMember, country: string): AlarmFormValues {
  return { ...newReceiverValues(country), memberId: member.ID, name: `${member.FirstName} ${member.LastName}`.trim(), email: member.Email, security: false, func: false };
}

/** An existing receiver: its number in its country's national format. */
export function receiverValues(receiver: AlarmReceiver, country: string): AlarmFormValues {
  const dial = receiver.country_code ?? dialCodeOf(country);
  const numberCountry = countryOfCallingCode(dial) ?? country;
  return {
    id: receiver.id,
    memberId: receiver.member_id,
    name: receiver.name,
    email: receiver.email ?? '',
    country: numberCountry,
    dialCode: dial,
    phone: receiver.phone ? formatPhone(`+${dial}${receiver.phone}`, numberCountry) : '',
    push: receiver.push_notification === 1,
    security: receiver.security_alarm === 1,
    func: receiver.function_alarm === 1,
  };
}

/** The e-mail the form stores: an invalid one clears it (spec section 5). */
export const storedEmail = (typed: string): string => (isValidEmail(typed.trim()) ? typed.trim() : '');

/** The phone error shown while typing (subsite 0 only), or null. */
export function livePhoneError(values: Pick<AlarmFormValues, 'phone' | 'dialCode'>, phoneShown: boolean): string | null {
  if (!phoneShown || !values.phone.trim()) return null;
  return phoneError(values.phone, values.dialCode);
}

/**
 * Save is disabled while a phone error exists, the name is empty, or the e-mail is invalid while a
 * phone error is present (the last is within the first; spec section 5 lists it).
 */
export function saveDisabled(values: AlarmFormValues, phoneShown: boolean): boolean {
  const phoneError = livePhoneError(values, phoneShown) !== null;
  const emailInvalid = values.email.trim() !== '' && storedEmail(values.email) === '';
  return phoneError || values.name.trim() === '' || (emailInvalid && phoneError);
}

/** The errors to show on Save: the shared rules over the stored values, and the typed e-mail's format. */
export function formErrors(values: AlarmFormValues, subsiteId: number): Record<string, string> {
  const errors = alarmReceiverFieldErrors(
    { name: values.name, email: storedEmail(values.email), country_code: values.dialCode, phone: subsiteId === 0 ? values.phone : '' },
    subsiteId,
  );
  const out: Record<string, string> = {};
  for (const [field, keys] of Object.entries(errors)) if (keys[0]) out[field] = keys[0];
  // An address typed wrong says so, rather than that none was given.
  if (values.email.trim() !== '' && storedEmail(values.email) === '') out['email'] = 'EnterValidEmail';
  return out;
}

export function saveBody(values: AlarmFormValues, subsiteId: number): AlarmReceiverSave {
  const phone = subsiteId === 0 ? values.phone.trim() : '';
  return {
    ...(values.id ? { id: values.id } : {}),
    member_id: values.memberId,
    name: values.name.trim(),
    email: storedEmail(values.email) || null,
    country_code: phone ? values.dialCode : null,
    phone: phone || null,
    push_notification: values.push ? 1 : 0,
    function_alarm: values.func ? 1 : 0,
    security_alarm: values.security ? 1 : 0,
  };
}
