import { describe, expect, it } from 'vitest';
import { createOfflineGeocoder, searchKey } from './geocoder';

const geocoder = createOfflineGeocoder();

describe('offline geocoder', () => {
  it('reverse: Stockholm city centre is in Stockholm, SE', async () => {
    const address = await geocoder.reverse(59.3293, 18.0686, 'sv');
    expect(address).not.toBeNull();
    expect(address?.country).toBe('SE');
    expect(address?.locality).toBe('Stockholm');
    expect(address?.label).toBe('Stockholm, SE');
    expect(address?.lat).toBeCloseTo(59.33, 1);
    expect(address?.lon).toBeCloseTo(18.07, 1);
  }, 30_000);

  it('reverse: a locality next to the city keeps its own name', async () => {
    const solna = await geocoder.reverse(59.3600, 18.0000, 'en');
    expect(solna).toMatchObject({ label: 'Solna, SE', locality: 'Solna', country: 'SE' });
  });

  it('reverse: nothing in the middle of the Atlantic', async () => {
    expect(await geocoder.reverse(35.0, -40.0, 'en')).toBeNull();
    expect(await geocoder.reverse(Number.NaN, 0, 'en')).toBeNull();
  });

  it('search: finds Uppsala first, case- and diacritic-insensitive', async () => {
    const [first] = await geocoder.search('uppsala', 'sv');
    expect(first).toMatchObject({ label: 'Uppsala, SE', locality: 'Uppsala', country: 'SE' });
    const [malmo] = await geocoder.search('Malmo', 'sv');
    expect(malmo).toMatchObject({ locality: 'Malmö', country: 'SE' });
  });

  it('search: at most five, larger places first, a near place ahead of a bigger far one', async () => {
    const results = await geocoder.search('San', 'en');
    expect(results).toHaveLength(5);
    expect(await geocoder.search('  ', 'en')).toEqual([]);

    // Mora in Cameroon is the largest Mora; near Falun the Swedish one wins.
    const [anywhere] = await geocoder.search('Mora', 'en');
    expect(anywhere).toMatchObject({ locality: 'Mora', country: 'CM' });
    const [nearFalun] = await geocoder.search('Mora', 'sv', { lat: 60.61, lon: 15.63 });
    expect(nearFalun).toMatchObject({ locality: 'Mora', country: 'SE' });
  });

  it('search: finds its own labels again, in their country', async () => {
    const [solna] = await geocoder.search('Solna, SE', 'en');
    expect(solna?.label).toBe('Solna, SE');
    expect(await geocoder.search('Solna, NO', 'en')).toEqual([]);
  });

  it('normalises search keys', () => {
    expect(searchKey('  Malmö ')).toBe('malmo');
    expect(searchKey('Göteborg')).toBe('goteborg');
  });
});
