/**
 * The native tracker payload of docs/api.md as a zod schema: the readable statement of the contract.
 * The hot path uses the hand-written decode-native.ts instead (about five times cheaper per record
 * than zod, see decode-native.ts); decode-native.test.ts holds both to the same verdicts.
 */
import { z } from 'zod';
import { isStorableNumber } from './storable';

/** Finite is not enough: the magnitudes beyond 2^53 and below 1e-130 cannot be stored (storable.ts). */
const number = z.number().refine(isStorableNumber);
const optNumber = number.nullish();
const optBool = z.boolean().nullish();
const io = z.strictObject({ '1': z.boolean().optional(), '2': z.boolean().optional(), '3': z.boolean().optional() }).nullish();

export const nativeRecordSchema = z.object({
  ts: z.union([
    z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    z.iso.datetime({ offset: true }),
  ]),
  lat: number,
  lon: number,
  spd: optNumber,
  hdg: optNumber,
  alt: optNumber,
  sat: optNumber,
  hdop: optNumber,
  ign: optBool,
  mov: optBool,
  odo: optNumber,
  hrs: optNumber,
  pwr: optNumber,
  bat: optNumber,
  din: io,
  dout: io,
  ble: z.array(z.object({ mac: z.string(), temp: optNumber, hum: optNumber, door: optBool, bat: optNumber })).nullish(),
  rfid: z.string().nullish(),
  harsh: z
    .object({ kind: z.enum(['acceleration', 'braking', 'cornering']), g: optNumber.refine((n) => n === null || n === undefined || n >= 0), ms: optNumber.refine((n) => n === null || n === undefined || n >= 0) })
    .nullish(),
});

export const nativeBatchSchema = z.object({ records: z.array(z.unknown()).min(1) });
