import { describe, expect, it } from 'vitest';
import { isImmobiliserOrRelay } from './output-safety';

describe('outputs that ask for confirmation', () => {
  it.each(['Immobiliser', 'engine immobilizer', 'Startspärr', 'Startsperre', 'Tenningsperre', 'Relä 2', 'Relé', 'rele', 'Fuel relay'])('%s does', (label) => {
    expect(isImmobiliserOrRelay(label)).toBe(true);
  });

  it.each(['Beacon', 'Door lock', 'Heater', 'Releaser', '', undefined, null])('%s does not', (label) => {
    expect(isImmobiliserOrRelay(label)).toBe(false);
  });
});
