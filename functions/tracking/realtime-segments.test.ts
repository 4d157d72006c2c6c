import { describe, expect, it } from 'vitest';
import { segmentsAfter } from './realtime-units';

describe("the map view's segments", () => {
  it('cuts the IMEIs after the first page into equal spans that meet, the last one open', () => {
    expect(segmentsAfter('356938060000999', '356938060049999', 4)).toEqual([
      { after: '356938060000999', until: '356938060013249' },
      { after: '356938060013249', until: '356938060025499' },
      { after: '356938060025499', until: '356938060037749' },
      { after: '356938060037749' },
    ]);
  });

  it('makes fewer segments than asked when there are fewer IMEIs between, and keeps leading zeros', () => {
    expect(segmentsAfter('000000000000001', '000000000000003', 8)).toEqual([
      { after: '000000000000001', until: '000000000000002' },
      { after: '000000000000002' },
    ]);
    expect(segmentsAfter('356938060000001', '356938060000002', 8)).toEqual([{ after: '356938060000001' }]);
  });
});
