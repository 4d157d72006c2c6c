import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { brandById } from '../shared/brands';
import { brandIndexHtml } from './vite.config';

describe('brandIndexHtml', () => {
  const html = readFileSync(new URL('./index.html', import.meta.url), 'utf8');
  it('names the subsite on the root element and sets title and favicon', () => {
    const out = brandIndexHtml(html, brandById(6));
    expect(out).toContain('<div id="root" data-subsite="6">');
    expect(out).toContain('<title>TripBook</title>');
    expect(out).toContain('href="/logos/icon-6.svg"');
  });
  it('leaves the plain index.html without a subsite', () => {
    expect(html).toContain('<div id="root">');
    expect(html).not.toContain('data-subsite');
  });
});
