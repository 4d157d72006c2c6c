import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const LOGOS = join(import.meta.dirname, '../../public/logos');

describe('brand logos', () => {
  const files = readdirSync(LOGOS).filter((f) => /^brand-\d(-dark)?\.svg$/.test(f));

  it('cover every brand', () => {
    expect(files.length).toBe(9);
  });

  // A browser without the logo's font draws the name in a wider fallback; without a fixed length
  // the text ran past the artwork and was cut off ("FleetLin...").
  it.each(files)('%s fits its name into the artwork whatever font the browser has', (file) => {
    const svg = readFileSync(join(LOGOS, file), 'utf8');
    const width = Number(/viewBox="0 0 (\d+) \d+"/.exec(svg)?.[1]);
    const texts = [...svg.matchAll(/<text ([^>]*)>/g)].map((m) => m[1] ?? '');
    expect(texts.length).toBeGreaterThan(0);
    for (const attributes of texts) {
      const x = Number(/\bx="([\d.]+)"/.exec(attributes)?.[1]);
      const length = Number(/\btextLength="([\d.]+)"/.exec(attributes)?.[1]);
      expect(attributes).toContain('lengthAdjust="spacingAndGlyphs"');
      expect(length).toBeGreaterThan(0);
      expect(x + length).toBeLessThanOrEqual(width);
    }
  });
});
