/**
 * The typed client (clients/typescript): the checked-in types are what the current OpenAPI document
 * generates (so the client cannot drift from the routes), and the example lists the seeded units
 * with their last positions through an API key created with the admin API, on the embedded runtime.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listUnitsWithPositions } from '../../clients/typescript/examples/list-units';
import { storePosition } from '../../functions/ingest/repository';
import { nextState } from '../../functions/ingest/state';
import type { EmbeddedRuntime } from '../../infra/local/runtime';
import { DEMO_UNIT_COUNT, demoImei } from '../../infra/local/seed';
import { CLIENT_SCHEMA_FILE, generatedClientSchema } from '../../scripts/generate-client';
import type { ApiKeyCreated } from '../../shared/schemas/api-keys';
import { callAs, demoCallers } from '../support/api-caller';
import { testPosition } from '../support/positions';
import { startRuntime } from '../support/runtime';
import { storeUnitState } from '../support/unit-state';

describe('the generated client', () => {
  it('is what the current OpenAPI document generates (npm run client:generate)', async () => {
    expect(readFileSync(CLIENT_SCHEMA_FILE, 'utf8') === (await generatedClientSchema())).toBe(true);
  }, 60_000);
});

describe('examples/list-units.ts', () => {
  let rt: EmbeddedRuntime;
  beforeAll(async () => {
    rt = await startRuntime();
  }, 120_000);
  afterAll(async () => {
    await rt?.stop();
  });

  it('lists the units and their last positions with an API key', async () => {
    const { admin } = await demoCallers();
    const now = Date.now() - 60_000;
    const placed = new Map<string, { lat: number; lon: number }>();
    // Every demo unit but the last gets a position; the last has none yet.
    for (let i = 0; i < DEMO_UNIT_COUNT - 1; i++) {
      const at = { lat: 59.3 + i / 100, lon: 18.0 + i / 100 };
      const p = testPosition(now + i, at.lat, at.lon);
      await storePosition(demoImei(i), p, now + i, 395);
      await storeUnitState(demoImei(i), nextState(undefined, p, now + i));
      placed.set(demoImei(i), at);
    }
    const created = await callAs<ApiKeyCreated>(rt.url, 'POST', '/api/v1/administration/api-keys', admin, { name: 'Example', scopes: ['units:read'] });
    const lines: string[] = [];
    const units = await listUnitsWithPositions({ baseUrl: rt.url, apiKey: created.body.data!.key, print: (line) => lines.push(line) });

    expect(units.map((u) => u.imei).sort()).toEqual(Array.from({ length: DEMO_UNIT_COUNT }, (_, i) => demoImei(i)).sort());
    for (const unit of units) expect(unit.position).toEqual(placed.get(unit.imei) ?? null);
    expect(lines).toHaveLength(DEMO_UNIT_COUNT);
    expect(lines.filter((l) => l.endsWith('no position yet'))).toHaveLength(1);
  });
});
