import { GeocodeCommand, GeoPlacesClient, ReverseGeocodeCommand } from '@aws-sdk/client-geo-places';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it } from 'vitest';
import { createLocationGeocoder } from './geocoder';

const places = mockClient(GeoPlacesClient);
const geocoder = () => createLocationGeocoder(new GeoPlacesClient({ region: 'eu-north-1' }));

afterEach(() => places.reset());

const drottninggatan = {
  PlaceId: 'p-1',
  PlaceType: 'PointAddress' as const,
  Title: 'Drottninggatan 5, 111 51 Stockholm, Sverige',
  Address: {
    Label: 'Drottninggatan 5, 111 51 Stockholm, Sverige',
    Country: { Code2: 'SE', Code3: 'SWE', Name: 'Sverige' },
    Locality: 'Stockholm',
    PostalCode: '111 51',
    Street: 'Drottninggatan',
    AddressNumber: '5',
  },
  Position: [18.0649, 59.3326],
};

describe('Amazon Location geocoder', () => {
  it('reverse: asks for one stored result at [lon, lat] and maps it to an Address', async () => {
    places.on(ReverseGeocodeCommand).resolves({ ResultItems: [drottninggatan] });
    const address = await geocoder().reverse(59.3326, 18.0649, 'sv');
    expect(places.commandCalls(ReverseGeocodeCommand)[0]?.args[0].input).toEqual({
      QueryPosition: [18.0649, 59.3326],
      Language: 'sv',
      IntendedUse: 'Storage',
      MaxResults: 1,
    });
    expect(address).toEqual({
      label: 'Drottninggatan 5, 111 51 Stockholm, Sverige',
      street: 'Drottninggatan 5',
      postalCode: '111 51',
      locality: 'Stockholm',
      country: 'SE',
      lat: 59.3326,
      lon: 18.0649,
    });
  });

  it('reverse: null when nothing is found', async () => {
    places.on(ReverseGeocodeCommand).resolves({ ResultItems: [] });
    expect(await geocoder().reverse(35, -40, 'en')).toBeNull();
  });

  it('search: free text with a bias position, five stored results', async () => {
    places.on(GeocodeCommand).resolves({
      ResultItems: [
        drottninggatan,
        { PlaceId: 'p-2', PlaceType: 'Locality', Title: 'Uppsala, Sverige', Address: { Locality: 'Uppsala', Country: { Code2: 'SE' } }, Position: [17.64, 59.86] },
        { PlaceId: 'p-3', PlaceType: 'Locality', Title: 'no position' },
      ],
    });
    const results = await geocoder().search(' Drottninggatan 5 ', 'en', { lat: 59.33, lon: 18.06 });
    expect(places.commandCalls(GeocodeCommand)[0]?.args[0].input).toEqual({
      QueryText: 'Drottninggatan 5',
      BiasPosition: [18.06, 59.33],
      Language: 'en',
      IntendedUse: 'Storage',
      MaxResults: 5,
    });
    expect(results).toHaveLength(2);
    expect(results[1]).toEqual({ label: 'Uppsala, Sverige', locality: 'Uppsala', country: 'SE', lat: 59.86, lon: 17.64 });
  });

  it('search: no bias without a position, nothing asked for empty text', async () => {
    places.on(GeocodeCommand).resolves({ ResultItems: [] });
    expect(await geocoder().search('Uppsala', 'no')).toEqual([]);
    expect(places.commandCalls(GeocodeCommand)[0]?.args[0].input).toEqual({
      QueryText: 'Uppsala',
      Language: 'no',
      IntendedUse: 'Storage',
      MaxResults: 5,
    });
    expect(await geocoder().search('   ', 'no')).toEqual([]);
    expect(places.commandCalls(GeocodeCommand)).toHaveLength(1);
  });
});
