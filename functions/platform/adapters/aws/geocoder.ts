/**
 * Geocoding with Amazon Location Service, geo-places v2. IntendedUse `Storage` because we keep
 * the addresses (trip start and end, places); `SingleUse` results may not be stored.
 */
import {
  GeocodeCommand,
  ReverseGeocodeCommand,
  type Address as LocationAddress,
  type GeoPlacesClient,
} from '@aws-sdk/client-geo-places';
import type { Language } from '../../../../shared/schemas/common';
import type { Address, Geocoder } from '../../ports';

const SEARCH_RESULTS = 5;

interface ResultItem {
  Title?: string | undefined;
  Address?: LocationAddress | undefined;
  Position?: number[] | undefined;
}

/** Street and house number in the Nordic order ("Drottninggatan 5"). */
function streetOf(address: LocationAddress | undefined): string | undefined {
  if (!address?.Street) return undefined;
  return address.AddressNumber ? `${address.Street} ${address.AddressNumber}` : address.Street;
}

export function toAddress(item: ResultItem): Address | null {
  const [lon, lat] = item.Position ?? [];
  if (lon === undefined || lat === undefined) return null;
  const a = item.Address;
  const address: Address = { label: a?.Label ?? item.Title ?? `${lat}, ${lon}`, lat, lon };
  const street = streetOf(a);
  if (street) address.street = street;
  if (a?.PostalCode) address.postalCode = a.PostalCode;
  if (a?.Locality) address.locality = a.Locality;
  if (a?.Country?.Code2) address.country = a.Country.Code2;
  return address;
}

export function createLocationGeocoder(client: GeoPlacesClient): Geocoder {
  return {
    async reverse(lat: number, lon: number, lang: Language) {
      const out = await client.send(
        new ReverseGeocodeCommand({ QueryPosition: [lon, lat], Language: lang, IntendedUse: 'Storage', MaxResults: 1 }),
      );
      const first = out.ResultItems?.[0];
      return first ? toAddress(first) : null;
    },

    async search(text: string, lang: Language, near?: { lat: number; lon: number }) {
      const query = text.trim();
      if (!query) return [];
      const out = await client.send(
        new GeocodeCommand({
          QueryText: query,
          ...(near ? { BiasPosition: [near.lon, near.lat] } : {}),
          Language: lang,
          IntendedUse: 'Storage',
          MaxResults: SEARCH_RESULTS,
        }),
      );
      return (out.ResultItems ?? []).map(toAddress).filter((a): a is Address => a !== null);
    },
  };
}
