import { describe, expect, it } from 'vitest';
import { brandById, brands, SUPPORT_BRANDS } from '../../../shared/brands';
import { contrastRatio, paletteFrom } from './theme';

describe('brands', () => {
  it('has ids 0 to 7 in order with distinct titles, colours and logos', () => {
    expect(brands.map((b) => b.id)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    for (const key of ['title', 'primary', 'logo', 'icon'] as const) {
      expect(new Set(brands.map((b) => b[key])).size).toBe(8);
    }
  });
  it('falls back to brand 0', () => {
    expect(brandById(9).id).toBe(0);
    expect(brandById('x').id).toBe(0);
    expect(brandById('6').id).toBe(6);
    expect(brandById(undefined).id).toBe(0);
  });
  it('shows the support button on brands 0, 2 and 3, each with its own address', () => {
    expect(SUPPORT_BRANDS).toEqual([0, 2, 3]);
    const addresses = SUPPORT_BRANDS.map((id) => brandById(id).supportEmail);
    expect(new Set(addresses).size).toBe(3);
    for (const a of addresses) expect(a).toMatch(/^[^@\s]+@[^@\s]+\.example$/);
  });
  it('has a banner on brand 6 only and a dark logo on brand 7 only', () => {
    expect(brands.filter((b) => b.banner).map((b) => b.id)).toEqual([6]);
    expect(brands.filter((b) => b.darkLogo).map((b) => b.id)).toEqual([7]);
    expect(brandById(7).logo).toMatch(/dark/);
  });
  it('has terms links for every language', () => {
    for (const b of brands) expect(Object.keys(b.termsUrl).sort()).toEqual(['en', 'no', 'sv']);
  });
  it('keeps white text on the primary colour, and the colour as text on white, at WCAG AA', () => {
    for (const b of brands) expect(contrastRatio(b.primary, '#ffffff')).toBeGreaterThanOrEqual(4.5);
  });
});

describe('paletteFrom', () => {
  it('builds ten shades, light to dark, with the brand colour at index 6', () => {
    const palette = paletteFrom('#1f5fbf');
    expect(palette).toHaveLength(10);
    expect(palette[6]).toBe('#1f5fbf');
    expect(contrastRatio(palette[0], '#ffffff')).toBeLessThan(contrastRatio(palette[9], '#ffffff'));
  });
});
