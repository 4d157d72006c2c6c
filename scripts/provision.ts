/**
 * `npm run provision -- [--stack <name>] IMEI [IMEI ...]`: adds trackers to the inventory of the
 * running `npm start` (DATA_DIR, default .data) or of a deployed stack, where it also creates each
 * tracker's IoT thing and certificate and attaches the stack's tracker policy. `--help` for the
 * options; docs/operations.md for the details. The logic lives in scripts/provision/.
 */
import { runProvision } from './provision/run';

process.exitCode = await runProvision(process.argv.slice(2), {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
});
