import { describe, expect, it } from 'vitest';
import type { AlarmReceiver } from '../../../../shared/schemas/alarms';
import { matchesReceiver, nextSort, phoneText, sortReceivers } from './alarm-list';
import { formErrors, memberValues, newReceiverValues, receiverValues, saveBody, saveDisabled, storedEmail } from './alarm-form-model';

const r = (id: string, name: string, email: string | null, phone: string | null): AlarmReceiver => ({
  id,
  name,
  email,
  country_code: phone ? '46' : null,
  phone,
  push_notification: 0,
  security_alarm: 1,
  function_alarm: 0,
  member_id: null,
  has_push_id: false,
  total_units: 0,
  total_ble_units: 0,
});

describe('alarm receivers list', () => {
  const rows = [r('1', 'Örjan', 'o@x.se', '701234567'), r('2', 'Anna', null, '709999999'), r('3', 'Bertil', 'b@x.se', null)];

  it('shows the phone in national format (international for another country) and searches name, e-mail and phone', () => {
    expect(phoneText(rows[0]!, 'SE')).toBe('070-123 45 67');
    expect(phoneText(rows[0]!, 'NO')).toBe('+46 70 123 45 67');
    expect(rows.filter((x) => matchesReceiver(x, 'anna', 'SE')).map((x) => x.id)).toEqual(['2']);
    expect(rows.filter((x) => matchesReceiver(x, 'b@x', 'SE')).map((x) => x.id)).toEqual(['3']);
    expect(rows.filter((x) => matchesReceiver(x, '070-999', 'SE')).map((x) => x.id)).toEqual(['2']);
    expect(rows.filter((x) => matchesReceiver(x, '070123', 'SE')).map((x) => x.id)).toEqual(['1']);
  });

  it('sorts by a column, a second click turns the direction, empty values last', () => {
    expect(sortReceivers(rows, { column: 'name', desc: false }, 'sv').map((x) => x.name)).toEqual(['Anna', 'Bertil', 'Örjan']);
    expect(sortReceivers(rows, { column: 'name', desc: true }, 'sv').map((x) => x.name)).toEqual(['Örjan', 'Bertil', 'Anna']);
    expect(sortReceivers(rows, { column: 'email', desc: false }, 'sv').map((x) => x.id)).toEqual(['3', '1', '2']);
    // Phones by their international form, whatever the display: Swedish before Norwegian.
    const norwegian = { ...r('4', 'Kari', null, '41234567'), country_code: '47' };
    expect(sortReceivers([norwegian, ...rows], { column: 'phone', desc: false }, 'sv').map((x) => x.id)).toEqual(['1', '2', '4', '3']);
    expect(nextSort({ column: 'name', desc: false }, 'name')).toEqual({ column: 'name', desc: true });
    expect(nextSort({ column: 'name', desc: true }, 'email')).toEqual({ column: 'email', desc: false });
  });
});

describe('alarm receiver form', () => {
  it('clears an invalid e-mail, and disables Save on a phone error or an empty name', () => {
    expect(storedEmail('not-valid')).toBe('');
    const v = { ...newReceiverValues('SE'), name: 'A', email: 'not-valid' };
    expect(formErrors(v, 0)).toEqual({ email: 'EnterValidEmail' });
    expect(saveDisabled(v, true)).toBe(false);
    expect(saveDisabled({ ...v, phone: '0701' }, true)).toBe(true);
    expect(saveDisabled({ ...v, phone: '070 123 45 67' }, true)).toBe(false);
    expect(formErrors({ ...v, email: '', phone: '08-123 45 67' }, 0)).toEqual({ phone: 'MakeSurePhoneNunIsCorrect' });
    expect(saveDisabled({ ...v, name: ' ' }, true)).toBe(true);
    expect(formErrors({ ...newReceiverValues('SE'), name: 'A' }, 0)).toEqual({ email: 'EmailOrPhoneRequired' });
    expect(formErrors({ ...newReceiverValues('SE'), name: 'A' }, 3)).toEqual({ email: 'AlarmReceiverEmailRequired' });
  });

  it('starts a new receiver in the viewer’s country and shows an existing number in national format', () => {
    expect(newReceiverValues('NO')).toMatchObject({ country: 'NO', dialCode: '47' });
    expect(receiverValues(r('1', 'Örjan', null, '701234567'), 'NO')).toMatchObject({ country: 'SE', dialCode: '46', phone: '070-123 45 67' });
  });

  it('turns both alarm switches off for a picked user, and sends no phone off subsite 0', () => {
    const picked = memberValues({ ID: 'u1', FirstName: 'Erik', LastName: 'Lind', Email: 'e@x.se', HasPushId: false }, 'SE');
    expect(picked).toMatchObject({ memberId: 'u1', name: 'Erik Lind', security: false, func: false });
    expect(saveBody({ ...picked, phone: '0701234567' }, 2)).toMatchObject({ phone: null, country_code: null, member_id: 'u1', security_alarm: 0 });
    expect(saveBody({ ...picked, phone: '0701234567' }, 0)).toMatchObject({ phone: '0701234567', country_code: '46' });
  });
});
