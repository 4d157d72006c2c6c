/**
 * Lists the account's units and their last positions with an API key holding `units:read`.
 *
 *   PORTAL_URL=https://portal.example.com PORTAL_API_KEY=tpk_... npx tsx clients/typescript/examples/list-units.ts
 */
import { fileURLToPath } from 'node:url';
import { createPortalClient } from '../index';

export interface UnitWithPosition {
  imei: string;
  name: string;
  position: { lat: number; lon: number } | null;
}

export async function listUnitsWithPositions(options: { baseUrl: string; apiKey: string; print?: (line: string) => void }): Promise<UnitWithPosition[]> {
  const client = createPortalClient(options);
  const units = await client.GET('/api/v1/user/units');
  if (!units.data) throw new Error(`GET /api/v1/user/units answered ${units.response.status}`);
  const list = Array.isArray(units.data.data) ? units.data.data : units.data.data.units;
  const out: UnitWithPosition[] = [];
  for (const unit of list) {
    const latest = await client.GET('/api/v1/user/trackers/{imei}/latest-position', { params: { path: { imei: unit.imei } } });
    if (!latest.data) throw new Error(`the latest position of ${unit.imei} answered ${latest.response.status}`);
    const at = latest.data.data;
    const position = at ? { lat: at.Latitude, lon: at.Longitude } : null;
    out.push({ imei: unit.imei, name: unit.name, position });
    options.print?.(`${unit.name} (${unit.imei}): ${position ? `${position.lat}, ${position.lon}` : 'no position yet'}`);
  }
  return out;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const baseUrl = process.env['PORTAL_URL'];
  const apiKey = process.env['PORTAL_API_KEY'];
  if (!baseUrl || !apiKey) throw new Error('Set PORTAL_URL and PORTAL_API_KEY');
  await listUnitsWithPositions({ baseUrl, apiKey, print: (line) => console.log(line) });
}
