import { describe, expect, it } from 'vitest';
import { coveredBottom, inSight } from './use-camera-padding';

const rect = (top: number, height: number) => ({ top, bottom: top + height, height }) as DOMRect;

describe('camera padding', () => {
  it('is the part of the map a phone sheet covers, none beside the map', () => {
    // 390 × 844: the map from 60 to 800 (the handle below it), the sheet's top at 420.
    expect(coveredBottom(rect(60, 740), rect(420, 424), true)).toBe(380);
    // A closed sheet is its handle alone, below the map.
    expect(coveredBottom(rect(60, 740), rect(800, 44), true)).toBe(0);
    expect(coveredBottom(rect(60, 740), rect(420, 424), false)).toBe(0);
    // Never more than the whole map.
    expect(coveredBottom(rect(60, 300), rect(0, 900), true)).toBe(300);
  });

  it('sees a point in sight only inside the uncovered part, a margin from its edges', () => {
    const size = { width: 390, height: 740 };
    expect(inSight([{ x: 195, y: 150 }], size, 380)).toBe(true);
    expect(inSight([{ x: 195, y: 500 }], size, 380)).toBe(false);
    expect(inSight([{ x: 10, y: 150 }], size, 380)).toBe(false);
    expect(inSight([{ x: 195, y: 150 }, { x: 300, y: 340 }], size, 380)).toBe(false);
  });
});
