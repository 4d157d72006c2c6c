import { describe, expect, it } from 'vitest';
import { reusedAddress, SAME_PLACE_M, type KnownEnd } from './known-places';

/** Metres north of 59.3 N, 18.0 E as latitude. */
const north = (m: number) => 59.3 + m / 111_195;

describe('reusedAddress', () => {
  // Newest trip first, as recentTripEnds answers: the previous trip stopped at "Depot", 20 m from "Home".
  const known: KnownEnd[] = [
    { lat: north(20), lon: 18, address: 'Depot', end: 'stop', startTs: 3 },
    { lat: north(500), lon: 18, address: 'Shop', end: 'start', startTs: 3 },
    { lat: north(0), lon: 18, address: 'Home', end: 'stop', startTs: 2 },
  ];

  it("starts a trip at the previous trip's stop within reach even where an older end lies nearer", () => {
    expect(reusedAddress('start', north(5), 18, known)).toBe('Depot');
  });

  it('takes the nearest known end for a stop, and for a start away from the previous stop', () => {
    expect(reusedAddress('stop', north(5), 18, known)).toBe('Home');
    expect(reusedAddress('start', north(510), 18, known)).toBe('Shop');
  });

  it('asks the geocoder (undefined) beyond SAME_PLACE_M and without known ends', () => {
    expect(reusedAddress('stop', north(500 + SAME_PLACE_M + 2), 18, known)).toBeUndefined();
    expect(reusedAddress('start', north(0), 18, [])).toBeUndefined();
  });
});
