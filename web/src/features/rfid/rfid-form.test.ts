import { describe, expect, it } from 'vitest';
import { ApiError } from '../../app/api-client';
import { checkCard, checkPairing, serverFieldKeys } from './rfid-form';

describe('the RFID forms', () => {
  it('checks a card with the server keys', () => {
    expect(checkCard({ name: ' ', userId: null, description: 'x'.repeat(201) }).errors).toEqual({
      name: 'RfidCardNameRequired',
      userId: 'RfidCardOwnerRequired',
      description: 'RfidDescriptionTooLong',
    });
    expect(checkCard({ name: ' Van key ', userId: 'u1', description: '' }).body).toEqual({ name: 'Van key', userId: 'u1', description: '' });
  });

  it('checks a pairing, upper-casing the reader id', () => {
    expect(checkPairing({ imei: null, readerId: '' }).errors).toEqual({ imei: 'RfidUnitNotFound', readerId: 'RfidReaderIdRequired' });
    expect(checkPairing({ imei: '356938031000001', readerId: 'a b' }).errors).toEqual({ readerId: 'RfidReaderIdInvalid' });
    expect(checkPairing({ imei: '356938031000001', readerId: 'r-1' }).body).toEqual({ imei: '356938031000001', readerId: 'R-1' });
  });

  it('takes the server field keys of a 422 only', () => {
    const error = new ApiError(422, 'x', 'ValidationFailed', { imei: ['RfidPairNotSupported'], other: ['X'] });
    expect(serverFieldKeys(error, ['imei', 'readerId'])).toEqual({ imei: 'RfidPairNotSupported' });
    expect(serverFieldKeys(new ApiError(409, 'x', 'RfidReaderAlreadyPaired'), ['imei'])).toBeNull();
  });
});
