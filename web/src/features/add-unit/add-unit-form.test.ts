import { describe, expect, it } from 'vitest';
import { imeiFrom } from '../../../../shared/validators/imei';
import { emptyAddUnitForm, serverErrors, validateAddUnit } from './add-unit-form';

const imei = imeiFrom('35693803100101');

describe('the add-unit form', () => {
  it('names each missing or wrong field with the message key the server uses', () => {
    expect(validateAddUnit({ ...emptyAddUnitForm, vehicleType: '' }).errors).toEqual({
      imei: 'SpecifyValidUnitImei',
      name: 'SpecifyUnitName',
      vehicleType: 'SelectVehicleType',
    });
    expect(validateAddUnit({ ...emptyAddUnitForm, imei: '12345', name: 'x'.repeat(51) }).errors).toEqual({ imei: 'ImeiNot15Digits', name: 'UnitNameTooLong' });
    expect(validateAddUnit({ ...emptyAddUnitForm, imei: `${imei.slice(0, 14)}${(Number(imei[14]) + 1) % 10}`, name: 'Van' }).errors).toEqual({ imei: 'InvalidImei' });
  });

  it('answers the trimmed request when the fields are right', () => {
    expect(validateAddUnit({ imei: ` ${imei} `, name: ' Van 7 ', vehicleType: 'van', userIds: ['u1', 'u1'] })).toEqual({
      request: { imei, name: 'Van 7', vehicleType: 'van', userIds: ['u1'] },
      errors: {},
    });
  });

  it("puts the server's field errors on the fields", () => {
    expect(serverErrors({ imei: ['ImeiAlreadyRegistered'], userIds: ['GrantUserNotFound'], other: ['X'] })).toEqual({
      imei: 'ImeiAlreadyRegistered',
      userIds: 'GrantUserNotFound',
    });
  });
});
