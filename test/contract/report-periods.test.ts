/**
 * The map's offline rule (shared/unit-status.ts) expects reports as often as the operating modes
 * configure the trackers to send them (functions/platform/adapters/device-encoding.ts).
 */
import { describe, expect, it } from 'vitest';
import { operatingModePeriods } from '../../functions/platform/adapters/device-encoding';
import { operatingModes } from '../../shared/schemas/commands';
import { REPORT_PERIOD_SECONDS } from '../../shared/unit-status';

describe('report periods', () => {
  it('are the same for the unit status as for the trackers', () => {
    for (const mode of operatingModes) expect(REPORT_PERIOD_SECONDS[mode], mode).toEqual(operatingModePeriods[mode]);
  });
});
