import { describe, expect, it } from 'vitest';
import { resolveDesign } from './design';

describe('resolveDesign', () => {
  it('shows the wizard when the root element flags the new design, or says nothing', () => {
    expect(resolveDesign('true', '')).toBe('new');
    expect(resolveDesign('1', '')).toBe('new');
    expect(resolveDesign('', '')).toBe('new');
    expect(resolveDesign(undefined, '')).toBe('new');
    expect(resolveDesign('maybe', '')).toBe('new');
  });

  it('shows the classic form when the root element says the design is not new', () => {
    expect(resolveDesign('false', '')).toBe('classic');
    expect(resolveDesign('0', '')).toBe('classic');
    expect(resolveDesign(' FALSE ', '')).toBe('classic');
  });

  it('lets ?design= override the root element for one visit', () => {
    expect(resolveDesign(undefined, '?design=classic')).toBe('classic');
    expect(resolveDesign('true', 'design=classic')).toBe('classic');
    expect(resolveDesign('false', '?design=new')).toBe('new');
    expect(resolveDesign('false', '?design=other')).toBe('classic');
  });
});
