import { describe, expect, it } from 'vitest';
import { OPENFREEMAP_STYLE_URL, mapConfigSchema } from '../../shared/schemas/tracking';
import { mapConfigFor } from './get-map-config';

const AMAZON = 'https://maps.geo.eu-north-1.amazonaws.com/v2/styles';

describe('map config', () => {
  it('offers OpenFreeMap when no style is configured (the web app falls back to its offline map)', () => {
    const config = mapConfigFor(undefined);
    expect(config).toEqual({ styleUrl: null, styles: [{ id: 'streets', url: OPENFREEMAP_STYLE_URL }] });
    expect(mapConfigSchema.parse(config)).toEqual(config);
  });

  it('offers Amazon Location streets and satellite (Hybrid) under the same key', () => {
    const url = `${AMAZON}/Standard/descriptor?key=v1.public.abc`;
    expect(mapConfigFor(url)).toEqual({
      styleUrl: url,
      styles: [
        { id: 'streets', url },
        { id: 'satellite', url: `${AMAZON}/Hybrid/descriptor?key=v1.public.abc` },
      ],
    });
  });

  it('starts with satellite when the configured Amazon style is imagery, and drops a colour scheme imagery refuses', () => {
    const url = `${AMAZON}/Satellite/descriptor?key=k`;
    expect(mapConfigFor(url).styles).toEqual([
      { id: 'satellite', url },
      { id: 'streets', url: `${AMAZON}/Standard/descriptor?key=k` },
    ]);
    expect(mapConfigFor(`${AMAZON}/Monochrome/descriptor?color-scheme=Dark&key=k`).styles).toEqual([
      { id: 'streets', url: `${AMAZON}/Monochrome/descriptor?color-scheme=Dark&key=k` },
      { id: 'satellite', url: `${AMAZON}/Hybrid/descriptor?key=k` },
    ]);
  });

  it('offers any other configured style alone', () => {
    const url = 'https://tiles.example.com/styles/basic.json';
    expect(mapConfigFor(url)).toEqual({ styleUrl: url, styles: [{ id: 'streets', url }] });
    // Not a geo-maps descriptor, though on an Amazon host.
    const v1 = 'https://maps.geo.eu-north-1.amazonaws.com/maps/v0/maps/Name/style-descriptor?key=k';
    expect(mapConfigFor(v1).styles).toEqual([{ id: 'streets', url: v1 }]);
  });

  it('offers the self-hosted street map first, keeping only the Amazon satellite map beside it', () => {
    const amazon = `${AMAZON}/Standard/descriptor?key=k`;
    const basemap = '/basemap/basemap.pmtiles';
    const selfHosted = { id: 'streets', url: basemap, format: 'pmtiles' };
    const config = mapConfigFor(amazon, basemap);
    expect(config).toEqual({ styleUrl: amazon, styles: [selfHosted, { id: 'satellite', url: `${AMAZON}/Hybrid/descriptor?key=k` }] });
    expect(mapConfigSchema.parse(config)).toEqual(config);
    // Without a satellite style (no style, or another provider's street style), the archive alone.
    expect(mapConfigFor(undefined, basemap)).toEqual({ styleUrl: null, styles: [selfHosted] });
    expect(mapConfigFor('https://tiles.example.com/styles/basic.json', basemap).styles).toEqual([selfHosted]);
  });
});
