import { describe, expect, it } from 'vitest';
import { createRequest, emptySensorForm, maskMac, serverErrors, updateRequest } from './sensor-form';

describe('the sensor form', () => {
  it('masks the MAC as it is typed', () => {
    expect(maskMac('ac23f4')).toBe('AC:23:F4');
    expect(maskMac('AC:23:F4:1')).toBe('AC:23:F4:1');
    expect(maskMac('ac-23-f4-1a-bc-de-ff')).toBe('AC:23:F4:1A:BC:DE');
    expect(maskMac('xyz')).toBe('');
  });

  it('checks with the server schema and names the field of each key', () => {
    expect(createRequest({ ...emptySensorForm, mac: 'AC:23:F3:1A:BC:DE', name: '', tempMin: '-25', humMax: 'abc' })).toEqual({
      errors: { mac: 'MacInvalid', name: 'SensorNameRequired', tempMin: 'TemperatureOutOfRange', humMax: 'HumidityOutOfRange' },
    });
    expect(createRequest({ ...emptySensorForm, mac: 'AC:23:F4:1A:BC:DE', name: 'Fridge', tempMin: '5', tempMax: '4,5' })).toEqual({ errors: { tempMax: 'ThresholdMinAboveMax' } });
    expect(createRequest({ ...emptySensorForm, mac: 'AC:23:F4:1A:BC:DE', name: 'Fridge', tempMax: '8,5', doorOpen: true })).toEqual({
      body: { mac: 'AC:23:F4:1A:BC:DE', name: 'Fridge', kind: 'temperature', thresholds: { tempMin: null, tempMax: 8.5, humMin: null, humMax: null, doorOpen: true, lowBattery: false } },
    });
    expect(updateRequest({ ...emptySensorForm, name: 'x'.repeat(31) })).toEqual({ errors: { name: 'SensorNameTooLong' } });
  });

  it('puts server keys on the fields', () => {
    expect(serverErrors({ mac: ['MacInUse'], 'thresholds.humMin': ['HumidityOutOfRange'], sensors: ['AllSensorSlotsTaken'] })).toEqual({ mac: 'MacInUse', humMin: 'HumidityOutOfRange' });
  });
});
