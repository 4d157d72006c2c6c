import { describe, expect, it } from 'vitest';
import { matchingItems, toggleShown } from './pick-list';

const items = [
  { id: '1', label: 'Service van 1', detail: 'ABC123' },
  { id: '2', label: 'Service van 2', detail: 'DEF456' },
  { id: '3', label: 'Excavator', detail: 'JKL012' },
];

describe('pick list', () => {
  it('matches every word in label or detail, ignoring case', () => {
    expect(matchingItems(items, 'van def', 'en').map((i) => i.id)).toEqual(['2']);
    expect(matchingItems(items, '  ', 'en')).toHaveLength(3);
    expect(matchingItems(items, 'jkl', 'en').map((i) => i.id)).toEqual(['3']);
  });
  it('selects all shown, or clears them when all already are, leaving the hidden ones', () => {
    const shown = matchingItems(items, 'van', 'en');
    const on = toggleShown(new Set(['3']), shown);
    expect([...on].sort()).toEqual(['1', '2', '3']);
    expect([...toggleShown(on, shown)]).toEqual(['3']);
  });
});
