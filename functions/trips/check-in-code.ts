/**
 * QR check-in codes. A unit's code is its IMEI and an HMAC-SHA256 of the IMEI under a server
 * secret, cut to 128 bits: unguessable without the secret, the same for every reader of the
 * sticker, and checked without a lookup. The sticker holds `${APP_URL}/user/check-in/{code}`; the
 * phone opens that page, which posts the code to POST /driver-check-in.
 *
 * The secret: 256 random bits, created once by whichever instance needs it first (a conditional
 * put, so all agree) and kept in the `driver-check-ins` table under a partition that is not an
 * IMEI. Neither runtime has a secret of its own in every function's environment (on AWS the JWT
 * secret does not exist and the origin secret rotates), and a rotating secret would void every
 * printed sticker. Deleting the item voids them all on purpose (docs/decisions/0015-trip-log.md).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { isConditionFailure } from '../platform/conditions';
import { dynamo, tableName } from '../platform/db';

const SECRET_KEY = { imei: 'secret#qr-check-in', fromTs: 0 };
export const CHECK_IN_PATH = '/user/check-in/';

let cached: Promise<Buffer> | undefined;

async function readOrCreateSecret(): Promise<Buffer> {
  const table = tableName('driverCheckIns');
  const read = async () => {
    const out = await dynamo().send(new GetCommand({ TableName: table, Key: SECRET_KEY, ConsistentRead: true }));
    const value = out.Item?.['secret'];
    return typeof value === 'string' ? Buffer.from(value, 'base64url') : null;
  };
  const found = await read();
  if (found) return found;
  const secret = randomBytes(32);
  try {
    await dynamo().send(
      new PutCommand({ TableName: table, Item: { ...SECRET_KEY, secret: secret.toString('base64url') }, ConditionExpression: 'attribute_not_exists(imei)' }),
    );
    return secret;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const winner = await read();
    if (!winner) throw new Error('QR check-in secret vanished while being created', { cause: error });
    return winner;
  }
}

function secret(): Promise<Buffer> {
  cached ??= readOrCreateSecret().catch((error: unknown) => {
    cached = undefined;
    throw error;
  });
  return cached;
}

/** For tests: forget the cached secret (a new table prefix has another one). */
export function forgetCheckInSecret(): void {
  cached = undefined;
}

function mac(key: Buffer, imei: string): string {
  return createHmac('sha256', key).update(`check-in:${imei}`, 'utf8').digest().subarray(0, 16).toString('base64url');
}

export async function checkInCodeOf(imei: string): Promise<string> {
  return `${imei}-${mac(await secret(), imei)}`;
}

/**
 * The IMEI a scanned code (or the URL of the sticker) stands for, or null when it is not a code
 * this server made.
 */
export async function imeiOfCheckInCode(scanned: string): Promise<string | null> {
  const tail = scanned.includes(CHECK_IN_PATH) ? scanned.slice(scanned.lastIndexOf(CHECK_IN_PATH) + CHECK_IN_PATH.length).split(/[?#]/)[0] ?? '' : scanned;
  const match = /^(\d{15})-([A-Za-z0-9_-]{22})$/.exec(tail.trim());
  if (!match) return null;
  const imei = match[1] as string;
  const expected = Buffer.from(mac(await secret(), imei));
  const given = Buffer.from(match[2] as string);
  return expected.length === given.length && timingSafeEqual(expected, given) ? imei : null;
}
