import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { brands } from '../../../shared/brands';
import { maskableSvg, precacheable, renderPng, webManifest } from './build-plugin';

describe('webManifest', () => {
  it("is each brand's own: name, theme colour, icons of 192 and 512 px, plain and maskable", () => {
    for (const brand of brands) {
      const manifest = webManifest(brand);
      expect(manifest).toMatchObject({ name: brand.title, short_name: brand.title, theme_color: brand.primary, display: 'standalone', start_url: '/user/my-trips', scope: '/' });
      const icons = manifest['icons'] as Array<{ src: string; sizes: string; purpose: string }>;
      expect(icons.map((i) => `${i.sizes} ${i.purpose}`).sort()).toEqual(['192x192 any', '192x192 maskable', '512x512 any', '512x512 maskable']);
      for (const icon of icons) expect(icon.src.startsWith(`/brands/${brand.id}/`)).toBe(true);
    }
  });
});

describe('icons', () => {
  it('draws every brand mark as a PNG of the asked size, maskable over the full canvas', () => {
    for (const brand of brands) {
      const mark = readFileSync(new URL(`../../public${brand.icon}`, import.meta.url), 'utf8');
      const png = renderPng(maskableSvg(mark, brand), 192);
      expect(png.subarray(1, 4).toString()).toBe('PNG');
      // IHDR width and height.
      expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([192, 192]);
    }
  });
});

describe('precacheable', () => {
  it('is the shell: scripts, styles, marks and icons, not the map library, the source maps or the offline map data', () => {
    expect(precacheable('assets/index-abc.js')).toBe(true);
    expect(precacheable('assets/index-abc.css')).toBe(true);
    expect(precacheable('logos/icon-3.svg')).toBe(true);
    expect(precacheable('brands/3/maskable-512.png')).toBe(true);
    expect(precacheable('assets/lazy~maplibre-gl-x.js')).toBe(false);
    expect(precacheable('assets/index-abc.js.map')).toBe(false);
    expect(precacheable('assets/natural-earth-x.pmtiles')).toBe(false);
    expect(precacheable('sw.js')).toBe(false);
  });
});
