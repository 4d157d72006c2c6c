import { describe, expect, it } from 'vitest';
import { addressRefetchInterval } from './trip-api';

const trip = (startAddress: string | null, stopAddress: string | null) => ({ startAddress, stopAddress }) as never;

describe('addressRefetchInterval', () => {
  it('asks again in 4 s while a trip shown has no address, at most three times after the first answer', () => {
    const data = { trips: [trip('Solna', 'Kista'), trip('Kista', null)] };
    expect(addressRefetchInterval({ dataUpdateCount: 1, data })).toBe(4_000);
    expect(addressRefetchInterval({ dataUpdateCount: 3, data })).toBe(4_000);
    expect(addressRefetchInterval({ dataUpdateCount: 4, data })).toBe(false);
  });

  it('does not ask again once every trip has its addresses, or before there is an answer', () => {
    expect(addressRefetchInterval({ dataUpdateCount: 1, data: { trips: [trip('Solna', 'Kista')] } })).toBe(false);
    expect(addressRefetchInterval({ dataUpdateCount: 1, data: { trips: [] } })).toBe(false);
    expect(addressRefetchInterval({ dataUpdateCount: 0 })).toBe(false);
  });
});
