import { describe, expect, it } from 'vitest';
import { addUnitRequestSchema } from './add-unit';
import { unitUpdateSchema } from './unit-editor';
import { vehicleTypes } from './vehicle-types';

const addUnit = (vehicleType: string) => addUnitRequestSchema.safeParse({ imei: '356307042441013', name: 'Van', vehicleType });

describe('vehicle types', () => {
  it('Add unit takes every type the unit editor offers, and no other', () => {
    for (const type of vehicleTypes) expect(addUnit(type).data?.vehicleType, type).toBe(type);
    expect(addUnit('spaceship').success).toBe(false);
  });

  it("still takes 'truck', which Add unit offered beside 'lorry', and stores it as 'lorry'", () => {
    expect(addUnit('truck').data?.vehicleType).toBe('lorry');
  });

  it('the unit editor offers the same list', () => {
    for (const type of vehicleTypes) expect(unitUpdateSchema.safeParse({ vehicleType: type }).success, type).toBe(true);
    expect(unitUpdateSchema.safeParse({ vehicleType: 'truck' }).success).toBe(false);
  });
});
