/**
 * `npm start`: the whole portal on this machine. Ctrl-C or SIGTERM stops every part it started.
 *   PORT (3000), MQTT_PORT (1883), DATA_DIR (.data); `npm start -- --ephemeral` keeps data in memory.
 *   HOST (127.0.0.1): the address HTTP and MQTT listen on; `0.0.0.0` opens them to the network.
 *   BRAND_DOMAINS='{"fleet.localhost":3}' serves a brand per host name, as CloudFront does.
 *   SIMULATED_TRACKERS (20): demo-fleet trackers driving around Stockholm; 0 turns them off.
 *   DEMO_HISTORY_DAYS (30): days of driving those trackers' units get through ingest on the first
 *     start, filled behind the live fleet while the portal already answers (a marker in DATA_DIR
 *     keeps later starts from sending it again, and an interrupted fill goes on); 0 turns it off.
 *   MAP_STYLE_URL (unset): a MapLibre style for the base map; unset, OpenFreeMap's street map, and
 *     the web app's offline map when that cannot be reached.
 *   MAP_EXTRA_ORIGINS (unset): origins of that style's tiles, glyphs and sprites when they are not
 *     the style's own, for the Content-Security-Policy (`https://tiles.example.com https://fonts.example.com`).
 *   BASEMAP_DIR (DATA_DIR/basemap): a self-hosted street map, a Protomaps archive `basemap.pmtiles`
 *     with its `fonts/` and `sprites/` (docs/operations.md, "The base map"); offered first when the
 *     archive is there at start.
 */
import { z } from 'zod';
import { DEMO_PASSWORD, demoSupportUser, demoUsers } from './seed';
import { exposureWarning } from './exposure';
import { startEmbeddedRuntime } from './runtime';

const args = new Set(process.argv.slice(2));
const env = z
  .object({
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    MQTT_PORT: z.coerce.number().int().min(0).max(65535).default(1883),
    DATA_DIR: z.string().min(1).default('.data'),
    HOST: z.string().trim().min(1).default('127.0.0.1'),
    SIMULATED_TRACKERS: z.coerce.number().int().min(0).max(1000).default(20),
    DEMO_HISTORY_DAYS: z.coerce.number().int().min(0).max(90).default(30),
    BRAND_DOMAINS: z
      .string()
      .default('{}')
      .transform((s, ctx) => {
        try {
          return z.record(z.string(), z.number().int().min(0).max(7)).parse(JSON.parse(s));
        } catch {
          ctx.addIssue({ code: 'custom', message: 'BRAND_DOMAINS must be JSON like {"fleet.example.com": 3}' });
          return z.NEVER;
        }
      }),
    MAP_EXTRA_ORIGINS: z
      .string()
      .default('')
      .transform((s) => s.split(/[\s,]+/).filter(Boolean))
      .pipe(z.array(z.string().regex(/^https:\/\/[^/\s?#'";,@]+\/?$/, 'MAP_EXTRA_ORIGINS: https origins such as https://tiles.example.com, separated by spaces'))),
  })
  .safeParse(process.env);

if (!env.success) {
  console.error(`Invalid environment:\n  ${env.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('\n  ')}`);
  process.exit(1);
}

// Until the portal runs, Ctrl-C or SIGTERM just ends the start (what it started goes with it).
let stopRunning: ((signal: string) => void) | null = null;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => (stopRunning ? stopRunning(signal) : process.exit(130)));
}

const ephemeral = args.has('--ephemeral');
console.log(`Starting the tracking portal (${ephemeral ? 'in memory' : `data in ${env.data.DATA_DIR}`})...`);

try {
  const runtime = await startEmbeddedRuntime({
    port: env.data.PORT,
    mqttPort: env.data.MQTT_PORT,
    dataDir: ephemeral ? null : env.data.DATA_DIR,
    host: env.data.HOST,
    brandDomains: env.data.BRAND_DOMAINS,
    simulatedTrackers: env.data.SIMULATED_TRACKERS,
    warmGeocoder: true,
    demoHistoryDays: env.data.DEMO_HISTORY_DAYS,
    mapOrigins: env.data.MAP_EXTRA_ORIGINS,
  });
  console.log(`
  Tracking portal is running
    Web app:      ${runtime.url}
    API docs:     ${runtime.url}/api/docs
    Sent mail:    ${runtime.url}/dev/outbox
    Simulated:    ${env.data.SIMULATED_TRACKERS} trackers driving around Stockholm (SIMULATED_TRACKERS=0 turns them off)${
      runtime.demoHistory
        ? `\n    History:      ${runtime.demoHistory.positions.toLocaleString('en-US')} positions of demo driving over ${runtime.demoHistory.days} days, filling behind the live fleet (progress below)`
        : ''
    }
    MQTT:         ${runtime.mqttUrl}   (WebSocket ${runtime.wsUrl})
  Demo account${runtime.seeded ? ' (created now)' : ''}:
    admin:  ${demoUsers.admin.username} / ${DEMO_PASSWORD}
    user:   ${demoUsers.user.username} / ${DEMO_PASSWORD}
    support: ${demoSupportUser.username} / ${DEMO_PASSWORD}
  Press Ctrl-C to stop.
`);
  const warning = exposureWarning(env.data.HOST, new URL(runtime.mqttUrl).port);
  if (warning) console.warn(warning);
  let stopping = false;
  stopRunning = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping...`);
    runtime.stop().then(
      () => process.exit(0),
      (e: unknown) => {
        console.error(e);
        process.exit(1);
      },
    );
  };
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
